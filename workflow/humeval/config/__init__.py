"""The validation wing: everything that reads a study file or the main config and decides whether it may run,
before any job starts.

- :mod:`.load` loads the main config and each study file, validates them against the JSON Schemas and runs the
  cross-reference checks (``load_study``: one line naming the file and the key for the first mistake);
- :mod:`.checks` and :mod:`.cells` hold those checks: references between keys, budgets, format strings, and every
  cell a table, claim, figure or arithmetic entry reads or writes;
- :mod:`.studyfile` reads YAML strictly (YAML 1.2 core scalars, no key twice, bounded size and nesting) and cuts
  each job's slice of a study file;
- :mod:`.registry` is the vocabulary: every registered loader, metric, exclusion, QRA type and figure kind, read
  from the source, with its typed parameters;
- :mod:`.conditions` lists the experimental conditions (Human Evaluation Datasheet fields) a study may state;
- :mod:`.planning` reads the ``planning:`` block once into typed settings, with its defaults.

Nothing is imported here, so that a job that needs only the registry or its study slice does not load the checks.
"""

__all__ = []
