"""Settings shared by the whole suite."""

from hypothesis import Phase, settings

# bench/mutation.sh: the same examples on every run and no example database, so that a
# mutant's verdict depends on the mutant, not on what an earlier mutant left in the database.
# Nor any shrinking: a mutant is killed by the first failing example, and shrinking it (seconds
# to minutes with the reference scorer) would only slow the run down.
settings.register_profile(
    "mutation",
    derandomize=True,
    database=None,
    print_blob=False,
    phases=(Phase.explicit, Phase.generate),
)
