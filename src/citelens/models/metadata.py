"""Report metadata: the run's identity and the topic it answers.

One model covers every track: RAG names the topic `narrative_id`, RAGTIME `topic_id` or
`request_id`. Whichever is given, all three end up holding the same id after loading, so
code can read any of them; conflicting ids are an error rather than a silent pick.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from pydantic import BaseModel, ConfigDict


class TaskType(str, Enum):
    """RAGTIME task of a run."""

    MULTILINGUAL = "multilingual"
    ENGLISH = "english"
    RAG = "rag"


class ReportMetaData(BaseModel):
    """Metadata of one report; unknown keys are ignored, ids are synced after loading."""

    model_config = ConfigDict(populate_by_name=True)

    team_id: str
    run_id: str
    topic_id: str = None  # type: ignore[assignment]  # filled from narrative_id when absent
    collection_ids: list[str] | None = None
    task: TaskType | None = None
    description: str | None = None
    creator: dict[str, Any] = None  # type: ignore[assignment]
    extra: dict[str, Any] = None  # type: ignore[assignment]

    # DRAGUN
    use_starter_kit: int | None = None
    type: str | None = None

    # RAGTIME
    request_id: str | None = None
    limit: int | None = None

    # RAG 2025/2026: the topic id and the topic text; an int narrative_id is accepted
    narrative_id: str | int | None = None
    narrative: str | None = None

    # RAG 2026: what the run is
    run_desc: str | None = None

    # auto-judge bookkeeping
    evaldata: dict[str, Any] | None = None

    def model_post_init(self, __context: Any) -> None:
        if (
            self.topic_id is not None
            and self.narrative_id is not None
            and str(self.topic_id) != str(self.narrative_id)
        ):
            raise ValueError(
                f"Inconsistent topic identifiers: topic_id={self.topic_id}, narrative_id={self.narrative_id}"
            )
        if self.topic_id is None and self.narrative_id is not None:
            self.topic_id = str(self.narrative_id)
        if self.topic_id is None:
            raise RuntimeError(f"ReportMetaData does not contain topic_id or narrative_id: {self}")
        self.set_topic_ids()

    def set_topic_ids(self) -> None:
        """Copy `topic_id` to the RAG and RAGTIME names of the topic id."""
        self.narrative_id = self.topic_id
        self.request_id = self.topic_id

    def set_narrative_text(self, narratives: dict[str, Any]) -> None:
        """Fill `narrative` from a topic-id to topic-text table."""
        self.narrative = narratives[self.narrative_id]  # type: ignore[index]

    def set_msmarco_collection_id(self) -> None:
        self.collection_ids = ["msmarco_v2.1_doc_segmented"]
