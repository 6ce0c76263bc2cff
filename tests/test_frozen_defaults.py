"""Defaults never change under a user: every registered function's keyword defaults (what a config entry gets when
it does not give the key) equal the snapshot in fixtures/frozen_defaults.json. A new parameter must be added to
the snapshot (its default keeps what a config that omits it computed); a changed default fails here. Where a
default must change, the change goes with a one-line migration that ``snakemake -n`` prints, and the snapshot
entry is changed in the same commit, listed under Changes."""

import json

from helpers import REPO

from humeval.config import registry as vocabulary

SNAPSHOT = REPO / "tests" / "fixtures" / "frozen_defaults.json"


def current_defaults() -> dict:
    return {
        f"{kind}:{name}": {
            p.name: (p.value if p.value is not None else p.default) for p in e.parameters if not p.required
        }
        for kind in vocabulary.KINDS
        for name, e in sorted(vocabulary.entries(kind).items())
    }


def test_no_default_changed_since_it_shipped():
    frozen, now = json.loads(SNAPSHOT.read_text()), current_defaults()
    changed = [
        f"{entry}.{key}: {frozen[entry][key]} -> {now[entry][key]}"
        for entry in frozen.keys() & now.keys()
        for key in frozen[entry].keys() & now[entry].keys()
        if frozen[entry][key] != now[entry][key]
    ]
    assert not changed, f"defaults changed under existing configs: {changed}"
    dropped = [f"{e}.{k}" for e in frozen for k in frozen[e] if e in now and k not in now[e]]
    assert not dropped, f"optional parameters removed (configs giving them would be refused): {dropped}"
    new = [f"{e}.{k}" for e in now for k in now[e] if k not in frozen.get(e, {})]
    assert not new, f"record the defaults of new parameters in {SNAPSHOT.name}: {new}"


def test_pairwise_tally_writes_its_first_statistics_by_default():
    """``score`` was added to the defaults once and broke a config whose table listed the seven first ones."""
    assert json.loads(SNAPSHOT.read_text())["metric:pairwise_tally"]["stats"] == str(
        ("wins", "losses", "ties", "n", "win_pct", "bws", "bws_scaled")
    )
