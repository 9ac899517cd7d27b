"""The support judge on real report sentences from the shared runs (kiddie, DRAGUN)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from citelens.support import SupportSettings, UncheckedReason, Verdict, default_settings, judge_support
from citelens.support.terms import extract_terms

SET = Path(__file__).parents[2] / "bench" / "data" / "support"

# kiddie run1, topic "hibernation": response 3 and its cited document (Adipose_tissue)
FAT_SENTENCE = "They use stored fat for energy instead of eating."
ADIPOSE = (
    "Adipose tissue, or body fat, stores energy for later use. Hibernating animals rely on their fat "
    "reserves for energy throughout the winter."
)
# kiddie run4, topic "bee": response 2 and the document it cites (Scripps_National_Spelling_Bee)
SPELLING_SENTENCE = "The competition takes place in Washington D.C. and is broadcast on television."
SCRIPPS = "The Scripps National Spelling Bee is an annual spelling bee held in the United States."
# kiddie run1, topic "leaf": response 0 and its cited document (Chlorophyll)
LEAF_SENTENCE = "Leaves change color in fall because of a green pigment called chlorophyll."
CHLOROPHYLL = (
    "Chlorophyll is a green pigment found in plants that absorbs light energy for photosynthesis. "
    "It gives leaves their green color during spring and summer."
)
# kiddie run4, topic "earthworms": response 0 and its cited document
WORMS_BOOK = (
    "How to Eat Fried Worms is a children's book by Thomas Rockwell, published in 1973 about a boy who "
    "bets he can eat 15 worms."
)


@cache
def dragun_document(doc_id: str) -> str:
    for line in (SET / "documents.jsonl").read_text().splitlines():
        doc = json.loads(line)
        if doc["id"] == doc_id:
            return doc["text"]
    raise KeyError(doc_id)


def quoted(document: str, verdict) -> list[str]:
    """The evidence texts, checked against the document at their offsets."""
    for e in verdict.evidence:
        assert document[e.start : e.end] == e.text
    return [e.text for e in verdict.evidence]


def test_stemmed_match_stored_fat_against_stores_energy():
    lenient = default_settings().with_overrides({"max_missing_terms": 5})
    v = judge_support(FAT_SENTENCE, ADIPOSE, lenient)
    assert v.verdict is Verdict.SUPPORTED
    texts = quoted(ADIPOSE, v)
    assert any("stores energy" in t for t in texts)  # "stored" ~ "stores" through the stemmer
    assert v.matched_terms >= 3


def test_two_words_the_document_never_uses_keep_it_from_supported():
    """Most of the sentence is there, but "long naps" is nowhere in the document:
    "supported" needs all but `max_missing_terms` (1) content words found."""
    v = judge_support("They use stored fat for energy during long naps.", ADIPOSE)
    assert v.verdict is Verdict.PARTIAL and v.missing_terms == ("long", "naps")
    one_missing = judge_support("They use stored fat for energy during naps.", ADIPOSE)
    assert one_missing.verdict is Verdict.SUPPORTED and one_missing.missing_terms == ("naps",)


def test_discourse_adverbs_and_hedges_are_not_claims_to_look_up():
    """ "indeed", "instead", "typically", "roughly" say how a claim is put, not what it is:
    they are function words, so a document need not use them."""
    v = judge_support("Indeed, bees typically make honey from nectar.", "Bees make honey from nectar.")
    assert v.verdict is Verdict.SUPPORTED and v.missing_terms == ()
    # the claim words are still needed
    partial = judge_support("Indeed, bees typically make wax from pollen.", "Bees make honey from nectar.")
    assert partial.verdict is not Verdict.SUPPORTED and partial.missing_terms == ("wax", "pollen")


def test_compound_head_matches_worms_against_earthworms():
    # kiddie run2 earthworms: the sentence cite-right demotes by its capital-word heuristic
    doc = "Earthworms are tube-shaped segmented worms that live in soil and create tunnels."
    v = judge_support("Worms live in the dirt and make tunnels.", doc)
    assert v.verdict is Verdict.SUPPORTED
    assert "tunnels" in " ".join(quoted(doc, v))


def test_number_match_and_a_missing_number():
    # DRAGUN organizer run, topic msmarco_v2.1_doc_06_1440134319: first sentence vs the topic article
    sentence = (
        "The 2014 *Journal of Nutrition* cohort study examined 10,711 South‑Korean adults aged 19‑64 using "
        "a 63‑item food‑frequency questionnaire to assess instant‑noodle consumption."
    )
    doc = dragun_document("msmarco_v2.1_doc_06_1440134319")
    v = judge_support(sentence, doc)
    texts = " ".join(quoted(doc, v))
    assert "10,711" in texts and "19" in texts and "64" in texts
    assert v.missing_numbers == ("63",)  # "63-item" is not in the article
    assert v.verdict is Verdict.PARTIAL  # a missing number keeps it from "supported"


def test_scaled_amounts_are_compared_by_value():
    # DRAGUN garag run: "€3.5 billion" against an article that says "$4.2 billion"
    doc = dragun_document("msmarco_v2.1_doc_52_1666095905")
    wrong = judge_support("J.P. Morgan provided €3.5 billion financing for the Super League.", doc)
    assert wrong.missing_numbers == ("3500000000",)
    assert wrong.verdict is not Verdict.SUPPORTED
    right = judge_support("J.P. Morgan agreed to underwrite 4,200,000,000 dollars for the Super League.", doc)
    assert right.missing_numbers == ()
    assert "4.2 billion" in " ".join(quoted(doc, right))


def test_a_scale_word_joined_to_the_next_word_still_scales_its_number():
    doc = "The most viral clip, with 5.6 million views, shows a beekeeper and her swarm."
    v = judge_support("A beekeeper's 5.6 million-view clip shows her swarm.", doc)
    assert v.missing_numbers == () and v.verdict is Verdict.SUPPORTED
    terms = [(t.key, t.kind) for t in extract_terms("a $2 billion-a-year deal", "english") if t.content]
    assert terms == [("#2000000000", "number"), ("year", "word"), ("deal", "word")]


def test_stopwords_alone_are_never_evidence():
    # shares "the", "in", "is" with the document and nothing else
    v = judge_support(SPELLING_SENTENCE, SCRIPPS)
    assert v.verdict is Verdict.UNSUPPORTED
    assert v.score == 0.0 and v.evidence == () and v.matched_terms == 0


def test_evidence_from_several_places():
    doc = CHLOROPHYLL
    v = judge_support(LEAF_SENTENCE, doc)
    texts = quoted(doc, v)
    # "green pigment ... chlorophyll" in the first sentence, "leaves ... color" in the second
    assert len(texts) >= 2
    assert any("green pigment" in t for t in texts)
    assert any("leaves" in t for t in texts)
    assert [e.start for e in v.evidence] == sorted(e.start for e in v.evidence)


def test_cross_language_pair_is_unchecked():
    chinese = "叶绿素是植物中的一种绿色色素，能吸收光能进行光合作用。秋天白昼变短时，叶绿素的生成减慢。"
    v = judge_support("When days get shorter and cooler, trees stop making chlorophyll.", chinese)
    assert v.verdict is Verdict.UNCHECKED and v.reason is UncheckedReason.DIFFERENT_LANGUAGE
    russian = "Хлорофилл — зелёный пигмент растений. Осенью, когда день становится короче, выработка хлорофилла замедляется."
    v = judge_support(LEAF_SENTENCE, russian)
    assert v.reason is UncheckedReason.DIFFERENT_LANGUAGE


def test_within_russian_inflected_forms_match():
    russian = "Хлорофилл — зелёный пигмент растений. Осенью выработка хлорофилла замедляется."
    v = judge_support("Осенью растения перестают вырабатывать хлорофилл.", russian)
    assert v.verdict is not Verdict.UNCHECKED
    assert v.language == "russian"
    assert "хлорофилла" in " ".join(quoted(russian, v))


def test_numbers_only_sentence_is_unchecked():
    # the fragment cite-right's segmenter cut from kiddie run4's "... a popular children's novel from 1973."
    v = judge_support("1973.", WORMS_BOOK)
    assert v.verdict is Verdict.UNCHECKED and v.reason is UncheckedReason.NUMBERS_ONLY
    assert v.score == 0.0


def test_too_little_content_and_missing_document():
    # auto-judge spot-check run 1, response 1 (no citation, no claim)
    assert judge_support("This is all.", WORMS_BOOK).reason is UncheckedReason.TOO_LITTLE_CONTENT
    assert judge_support(LEAF_SENTENCE, None).reason is UncheckedReason.DOCUMENT_NOT_AVAILABLE
    assert judge_support(LEAF_SENTENCE, "  \n").reason is UncheckedReason.DOCUMENT_NOT_AVAILABLE


def test_a_sentence_is_never_resplit():
    # cite-right cuts this at "(Aug." and judges the pieces; the judge sees one sentence
    sentence = (
        "U.S. filings in In re Citibank (Aug. 11, 2020) confirm Citigroup mistakenly wired $900 million to "
        "Revlon lenders, intending to make a $7.8 million interest payment."
    )
    doc = dragun_document("msmarco_v2.1_doc_48_273997000")
    v = judge_support(sentence, doc)
    assert v.content_terms >= 12  # all of it, before and after "(Aug."
    assert "7800000" in v.missing_numbers and "900000000" not in v.missing_numbers


def test_thresholds_are_settings():
    strict = default_settings().with_overrides({"supported_coverage": 1.0})
    assert judge_support(FAT_SENTENCE, ADIPOSE, strict).verdict is Verdict.PARTIAL
    with pytest.raises(ValueError):
        default_settings().with_overrides({"supported_coverage": 2})
    with pytest.raises(ValueError):
        SupportSettings.model_validate({**default_settings().model_dump(), "unknown": 1})


def test_verdict_round_trips_through_json():
    v = judge_support(LEAF_SENTENCE, CHLOROPHYLL)
    again = type(v).from_dict(json.loads(json.dumps(v.to_dict())))
    assert again.verdict == v.verdict and again.evidence == v.evidence and again.score == round(v.score, 4)


def test_importing_the_support_package_is_cheap():
    import subprocess
    import sys

    probe = "import sys, citelens.support; print(sorted(m for m in ('Stemmer', 'pydantic', 'numpy') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


# DRAGUN garag run, topic 11 (Carlos Ghosn's escape): a sentence that denies what the cited
# article reports (the article tells of the walk to the hotel; it does not say nobody confirmed it)
GHOSN_DOC = "msmarco_v2.1_doc_34_7751734"
GHOSN_DENIAL = (
    "Japanese police or court filings offer no public confirmation that Carlos Ghosn walked 800 m to a "
    "Tokyo hotel on 29 December 2019."
)


def test_a_denial_the_document_does_not_make_is_at_most_partial():
    document = dragun_document(GHOSN_DOC)
    denial = judge_support(GHOSN_DENIAL, document)
    assert denial.verdict is Verdict.PARTIAL
    assert any("walking about 800m to a nearby hotel" in t for t in quoted(document, denial))
    # the same words without the denial: the article states it
    # (with every missing word allowed, so that only the denial differs)
    lenient = default_settings().with_overrides({"max_missing_terms": 10})
    assert judge_support(GHOSN_DENIAL, document, lenient).verdict is Verdict.PARTIAL
    statement = judge_support(GHOSN_DENIAL.replace("offer no public", "offer public"), document, lenient)
    assert statement.verdict is Verdict.SUPPORTED and statement.score == denial.score


def test_a_denial_the_document_also_makes_can_be_supported():
    document = "The board did not approve the merger in 2019. Shareholders were told in March."
    v = judge_support("The board did not approve the merger in 2019.", document)
    assert v.verdict is Verdict.SUPPORTED


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        ("No court documents have emerged.", "english", True),
        ("Neither the FBI nor the office named him.", "english", True),
        ("Records don’t specify the passport.", "english", True),
        ("It isn't listed.", "english", True),
        ("A notable nobleman knows Norway.", "english", False),
        ("Хлорофилл не разрушается.", "russian", True),
        ("Хлорофилл разрушается.", "russian", False),
        ("No court documents.", None, False),  # no list for an unknown language
    ],
)
def test_denying_words_are_whole_words_of_the_documents_language(text, language, expected):
    from citelens.support.negation import states_negation

    assert states_negation(text, language) is expected


def test_a_number_grouped_by_spaces_matches_its_comma_form():
    # DRAGUN organizer report, topic 9: "11 000 mph" (narrow no-break spaces) against the
    # topic article's "flying at 11,000 miles-per-hour"
    sentence = (
        "Major outlets such as Reuters, AP, or the BBC did not publish the 11\u202f000\u202fmph or "
        "700\u202fg‑force details, indicating the New\u202fYork\u202fPost’s figures are not reflected in "
        "mainstream coverage."
    )
    document = dragun_document("msmarco_v2.1_doc_25_502424913")
    v = judge_support(sentence, document)
    assert v.missing_numbers == ()
    assert "11,000" in quoted(document, v)
    keys = [t.key for t in extract_terms("the 11 000 mph, 1 234 567 people, in 2019 100 people", "english")]
    assert keys[:3] == ["the", "#11000", "unit:mph"] and "#1234567" in keys
    assert "#2019" in keys and "#100" in keys  # a year and a count are not one number


def test_an_ordinal_suffix_is_part_of_its_number_not_a_word():
    # DRAGUN garag run, topic 24: "Florida’s 13th Judicial Circuit"
    terms = extract_terms(
        "Florida’s 13th Judicial Circuit charging documents list 30 felony counts", "english"
    )
    assert "#13" in [t.key for t in terms]
    assert not [t for t in terms if t.key == "th" and t.content]


def test_another_amount_in_the_evidence_makes_the_sentence_unsupported():
    # DRAGUN garag run, topic 25: the article says J.P. Morgan underwrites "an initial $4.2 billion"
    sentence = "J.P. Morgan provided €3.5 billion financing for the Super League."
    document = dragun_document("msmarco_v2.1_doc_52_1666095905")
    v = judge_support(sentence, document)
    assert v.verdict is Verdict.UNSUPPORTED and v.other_amount and v.missing_numbers == ("3500000000",)
    assert v.score > 0.6  # the words match; the amount does not
    right = judge_support(sentence.replace("€3.5 billion", "$4.2 billion"), document)
    assert right.verdict is Verdict.SUPPORTED and not right.other_amount
    rounded = judge_support(sentence.replace("€3.5 billion", "about $4 billion"), document)
    assert rounded.verdict is Verdict.PARTIAL and not rounded.other_amount  # close: written loosely
    # a bare number (no unit) is never "another amount"
    assert not judge_support("J.P. Morgan provided 35 financing for the Super League.", document).other_amount


def test_an_amount_the_sentence_states_itself_is_not_another_amount():
    document = "Citigroup mistakenly wired $900 million to Revlon lenders in August."
    sentence = "Citigroup mistakenly wired $900 million to Revlon lenders, intending a $7.8 million payment."
    v = judge_support(sentence, document)
    assert v.missing_numbers == ("7800000",) and not v.other_amount and v.verdict is not Verdict.UNSUPPORTED
    other = judge_support(sentence, document.replace("$900 million", "$950 million and $1.2 million"))
    assert other.other_amount and other.verdict is Verdict.UNSUPPORTED


# an article whose every sentence names its topic ("Apple", "App Store")
APP_STORE_ARTICLE = (
    "Apple runs the App Store on the iPhone. Apple takes a 30 percent commission on sales in the App Store. "
    "Epic Games sued Apple over the rules of the App Store. Apple removed Fortnite from the App Store in August."
)


def test_a_sentence_sharing_only_the_documents_topic_is_unsupported():
    """The names the article uses throughout are found for any sentence on its topic, so
    they are no evidence of its claim (GUIDELINE.md: "sharing the topic or naming the
    same thing is not support"): without any of the claim's other words the verdict is
    "unsupported", and the explanation says which words were topic words only."""
    sentence = "Apple's App Store guidelines are applied equally to every developer."
    v = judge_support(sentence, APP_STORE_ARTICLE)
    assert v.verdict is Verdict.UNSUPPORTED and v.tier == "low"
    assert v.topic_terms == ("Apple", "App", "Store") and v.score >= default_settings().unsupported_coverage
    assert v.missing_terms == ("guidelines", "applied", "equally", "developer")
    off = default_settings().with_overrides({"min_claim_found": 0.0})
    plain = judge_support(sentence, APP_STORE_ARTICLE, off)
    assert plain.verdict is Verdict.PARTIAL and plain.topic_terms == ()


def test_a_claim_word_of_one_passage_keeps_a_topic_sentence_partial():
    """A word the article uses in one place ("commission") is evidence of a claim."""
    v = judge_support("Apple takes a commission from developers in the App Store.", APP_STORE_ARTICLE)
    assert v.verdict is not Verdict.UNSUPPORTED and v.topic_terms == ()
    assert v.details["claim_found"] >= default_settings().min_claim_found


def test_a_one_sentence_document_has_no_topic_words():
    """No word of a one-sentence document is used throughout it: every word found counts
    for the claim."""
    v = judge_support("The Scripps National Spelling Bee is broadcast on television.", SCRIPPS)
    assert v.topic_terms == () and v.details["claim_found"] == v.score


def test_a_topic_only_sentence_whose_evidence_gives_another_amount_is_a_contradiction():
    """The topic-word step must not hide another amount: "$30 million" against a document
    that says "$5 million" is contradicted (the high tier), not merely off-topic."""
    parts = []
    for day in range(1, 15):
        parts += [f"Epic lawyers spoke on day {day} of the hearing.", f"Apple lawyers answered on day {day}."]
    document = " ".join(parts) + " Apple paid Epic $5 million."
    v = judge_support("Apple paid Epic $30 million through intermediaries overseas.", document)
    assert v.verdict is Verdict.UNSUPPORTED and v.details["topic_only"]
    assert v.other_amount and v.tier == "high"
    assert set(v.topic_terms) == {"Apple", "Epic"}
