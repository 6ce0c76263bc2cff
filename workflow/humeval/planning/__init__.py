"""The planning wing (docs/planning.md): how large a reproduction must be to recover each finding.

- :mod:`.plan` plans a study (``plan_study``: power.csv, per finding, design, method and basis);
- :mod:`.models` declares what a model of a finding provides (:class:`~.models.PlanningModel`) and registers the
  models, each chosen by what it says it plans, not by name: :mod:`.model` (two group means, with the paper's test
  and a valid analysis under the crossed model of :mod:`.crossed_model`), :mod:`.icc` (comparisons of ICC cells)
  and :mod:`.stated` (planning without data, from stated components);
- :mod:`.bootstrap` resamples a pilot's items for findings no model plans;
- :mod:`.power_table` is what readers take from power.csv (headline, smallest sufficient design).

Nothing is imported here, so that the report, which reads power.csv, does not load the simulations.
"""

__all__ = []
