"""What a conversion could not carry over, said per place in the source value."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Kind = Literal["loss", "change", "gap"]

#: code -> (kind, what it means). `loss`: source content is gone; `change`: content was
#: rewritten or invented; `gap`: the target asks for something the source did not have.
LOSS_CODES: dict[str, tuple[Kind, str]] = {
    "confidence_dropped": ("loss", "citation confidences are not expressible in the target; order kept"),
    "confidence_invented": ("change", "the target needs confidences; 1/rank stand-ins were written"),
    "citations_truncated": ("loss", "citations beyond the target's per-sentence maximum were dropped"),
    "citation_out_of_range": ("loss", "a citation position pointed outside references and was dropped"),
    "citation_duplicate_merged": ("change", "a doc id cited twice in one sentence is kept once"),
    "references_dropped": ("loss", "reference entries the target does not keep were dropped"),
    "references_duplicate_merged": ("change", "a doc id listed twice in references is kept once"),
    "references_added": ("change", "cited doc ids missing from references were appended"),
    "metadata_dropped": ("loss", "metadata keys the target does not list were dropped"),
    "metadata_unfilled": ("gap", "the target requires a metadata key the source does not have"),
    "id_stringified": ("change", "an integer id was written as a string"),
    "field_dropped": ("loss", "a top-level key the target does not have was dropped"),
    "sentence_field_dropped": ("loss", "sentence keys other than text and citations were dropped"),
    "response_length_recomputed": ("change", "the declared response length was replaced by the computed one"),
}


@dataclass(frozen=True)
class LossNote:
    """One thing a conversion dropped, rewrote or could not fill.

    `pointer` is an RFC 6901 pointer into the *source* value (empty for the whole value),
    so an editor can show the note where the lost content is.
    """

    code: str
    pointer: str
    message: str
    data: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def kind(self) -> Kind:
        return LOSS_CODES[self.code][0]
