"""What a lexical verdict says about itself: its judge, its tier, what was not found,
clauses that are not covered and numbers that count something else."""

from __future__ import annotations

from citelens.support import Verdict, default_settings, judge_support
from citelens.support.clauses import clauses
from citelens.support.explain import citation_lines
from citelens.support.terms import extract_terms
from citelens.support.verdict import SupportVerdict, from_row, to_row

OWL = "Owls are birds of prey that live in forests."
WORMS_BOOK = (
    "How to Eat Fried Worms is a children's book by Thomas Rockwell, published in 1973 about a boy who "
    "bets he can eat 15 worms."
)


def test_every_verdict_names_the_lexical_judge_and_a_tier() -> None:
    v = judge_support("Worms live in the dirt and make tunnels.", "Earthworms are worms that live in soil.")
    assert v.judge == "lexical" and v.tier == "low"
    assert judge_support("Hi there.", None).tier == ""  # unchecked: no tier


def test_nothing_found_is_the_high_tier_and_some_words_the_low_tier() -> None:
    nothing = judge_support("Comets orbit distant stars slowly.", OWL)
    assert nothing.verdict is Verdict.UNSUPPORTED and nothing.tier == "high"
    some = judge_support("Owls catch mice very quietly.", OWL)
    assert some.verdict is Verdict.UNSUPPORTED and some.tier == "low"
    assert some.score >= default_settings().high_tier_coverage
    # the tier boundary is a setting
    strict = default_settings().with_overrides({"high_tier_coverage": 0.3})
    assert judge_support("Owls catch mice very quietly.", OWL, strict).tier == "high"


def test_the_words_not_found_are_listed_as_the_sentence_writes_them() -> None:
    v = judge_support("Owls catch Mice very quietly.", OWL)
    assert v.missing_terms == ("catch", "Mice", "quietly")


def test_a_number_with_another_noun_keeps_the_sentence_from_supported() -> None:
    # kiddie run4, "earthworms": the book says 15 worms, not 15 days
    v = judge_support("A boy bets he can eat 15 worms in 15 days.", WORMS_BOOK)
    assert v.verdict is Verdict.PARTIAL and v.mismatched_numbers == ("15 days",)
    right = judge_support("A boy bets he can eat 15 worms.", WORMS_BOOK)
    assert right.verdict is Verdict.SUPPORTED and right.mismatched_numbers == ()
    off = default_settings().with_overrides({"number_pair_window": 0})
    assert (
        judge_support("A boy bets he can eat 15 worms in 15 days.", WORMS_BOOK, off).mismatched_numbers == ()
    )


def test_a_year_or_a_number_word_is_not_paired_with_the_next_word() -> None:
    v = judge_support("The 1973 book is about a boy who bets he can eat worms.", WORMS_BOOK)
    assert v.mismatched_numbers == ()


def test_a_day_before_a_month_name_is_a_date_not_a_count() -> None:
    doc = "Two beekeepers founded the hive on August 13, 2020, near Lyon."
    v = judge_support("The hive was founded on 13 August 2020 by two beekeepers.", doc)
    assert v.verdict is Verdict.SUPPORTED and v.mismatched_numbers == ()
    # a count still needs its noun
    count = judge_support("The hive was founded by 13 beekeepers in 2020.", doc)
    assert count.verdict is Verdict.PARTIAL and count.mismatched_numbers == ("13 beekeepers",)


def test_a_short_month_next_to_a_number_matches_the_full_name() -> None:
    doc = "In February 2021 a beekeeper filmed the swarm. Jan Novak kept the hive."
    v = judge_support("A beekeeper filmed the swarm in Feb 2021.", doc)
    assert v.verdict is Verdict.SUPPORTED and v.missing_terms == ()
    # alone, a short month is a word like any other: "Jan" is not January here
    terms = extract_terms("Jan kept the hive; the swarm came 2 Jan.", "english")
    assert [t.key for t in terms if t.content][:1] == ["jan"] and "januari" in {t.key for t in terms}


def test_each_clause_must_be_covered_for_supported() -> None:
    doc = "Bees make honey from nectar. Honey is stored in wax cells."
    whole = judge_support("Bees make honey from nectar; honey is stored in wax cells.", doc)
    assert whole.verdict is Verdict.SUPPORTED
    # most words are there, but the second clause is not
    v = judge_support(
        "Bees make honey from nectar and store honey in wax cells, which beekeepers harvest every autumn.",
        doc,
    )
    assert v.verdict is Verdict.PARTIAL
    assert v.uncovered_clauses == ("beekeepers harvest every autumn",)


def test_clauses_split_at_clause_words_but_keep_lists_whole() -> None:
    sentence = (
        "Bears, chipmunks and groundhogs hibernate, which saves energy; frogs freeze (wood frogs thaw)."
    )
    terms = extract_terms(sentence, "english")
    parts = [" ".join(t.key for t in part) for part in clauses(sentence, terms, "english")]
    assert parts == ["bear chipmunk groundhog hibern", "save energi", "frog freez", "wood frog thaw"]


def test_a_short_first_clause_joins_the_clause_after_it() -> None:
    def parts(sentence: str) -> list[str]:
        terms = extract_terms(sentence, "english")
        return [" ".join(t.key for t in part) for part in clauses(sentence, terms, "english")]

    assert parts("Bees - they make honey and wax in hives.") == ["bee honey wax hive"]
    assert parts("Bees - they make honey in hives; beekeepers harvest it every autumn.") == [
        "bee honey hive",
        "beekeep harvest autumn",
    ]
    # the judge splits a "supported" sentence into clauses: this one used to stop the check
    v = judge_support("Bees - they make honey and wax in hives.", "Bees make honey and wax in hives.")
    assert v.verdict is Verdict.SUPPORTED


def test_the_new_fields_survive_the_cache_row_and_the_json_form() -> None:
    v = judge_support("A boy bets he can eat 15 worms in 15 days in Paris.", WORMS_BOOK)
    assert v.missing_terms and v.mismatched_numbers
    assert from_row(to_row(v)).to_dict() == v.to_dict()
    assert SupportVerdict.from_dict(v.to_dict()).to_dict() == v.to_dict()


APP_STORE_ARTICLE = (
    "Apple runs the App Store on the iPhone. Apple takes a 30 percent commission on sales in the App Store. "
    "Epic Games sued Apple over the rules of the App Store. Apple removed Fortnite from the App Store in August."
)


def test_words_found_only_as_topic_words_are_named_and_survive_the_cache_row() -> None:
    """A topic-only "unsupported" says which of its words are there, and why they do not count."""
    v = judge_support(
        "Apple's App Store guidelines are applied equally to every developer.", APP_STORE_ARTICLE
    )
    assert v.verdict is Verdict.UNSUPPORTED and v.topic_terms == ("Apple", "App", "Store")
    assert from_row(to_row(v)).to_dict() == v.to_dict()
    assert SupportVerdict.from_dict(v.to_dict()).topic_terms == v.topic_terms
    lines = citation_lines({"doc_id": "article", **v.to_dict()})
    assert "  found only as the document's topic words (it uses them throughout): Apple, App, Store" in lines
    assert "  not found: guidelines, applied, equally, developer" in lines


FILM = "The film tells the story of a boy. He eats worms on a bet."


def test_a_wordnet_synonym_raises_partial_to_supported() -> None:
    off = default_settings().with_overrides({"use_synonyms": 0})
    sentence = "The movie story shows a boy."
    assert judge_support(sentence, FILM, off).verdict is Verdict.PARTIAL
    v = judge_support(sentence, FILM)
    assert v.verdict is Verdict.SUPPORTED and "movie" not in v.missing_terms
    # a missing number keeps it partial; a synonym outside the evidence passages does not count
    assert judge_support("The movie story shows a hungry boy with 15 worms.", FILM).verdict is Verdict.PARTIAL


def test_a_synonym_never_clears_an_unsupported_but_lowers_its_confidence() -> None:
    """Almost nothing found as written, but a share of the claim there as synonyms: maybe
    a paraphrase. Still "unsupported" (a synonym never clears a flag), in the low tier
    (an info, "weak evidence", not a warning)."""
    sentence, document = "The movie flopped badly overseas.", "The film was shown in Paris."
    v = judge_support(sentence, document)
    assert v.verdict is Verdict.UNSUPPORTED and v.tier == "low"
    assert v.score < default_settings().high_tier_coverage  # as written, below the boundary
    off = default_settings().with_overrides({"use_synonyms": 0})
    assert judge_support(sentence, document, off).tier == "high"
    # synonyms of too little of the claim leave it in the high tier
    long = "The movie flopped badly overseas despite costly marketing and famous actors."
    assert judge_support(long, document).tier == "high"


def test_the_synonym_table_is_what_the_build_script_makes_from_wordnet() -> None:
    import importlib.util
    from pathlib import Path

    import pytest

    root = Path(__file__).resolve().parents[2]
    if not Path("/usr/share/wordnet/index.noun").is_file():
        pytest.skip("WordNet is not installed here (apt-get install wordnet-base)")
    spec = importlib.util.spec_from_file_location("build_synonyms", root / "scripts" / "build_synonyms.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--check"]) == 0
    text = (root / "src" / "citelens" / "support" / "synonyms-en.txt").read_text(encoding="utf-8")
    assert "WordNet 3.0" in text and (root / "src" / "citelens" / "support" / "WORDNET-LICENSE").is_file()
