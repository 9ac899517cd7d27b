"""Property: any text either parses or raises `TopicFileError`, never anything else."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from citelens.topics import TopicFileError, parse_topics

# Text biased towards the characters that steer the parser into each shape.
shaped_text = st.lists(
    st.one_of(
        st.sampled_from(
            [
                "{",
                "}",
                "[",
                "]",
                '"',
                ":",
                ",",
                "\t",
                "\n",
                "\r\n",
                "\r",
                "\ufeff",
                '"id"',
                '"request_id"',
                '"title"',
                '"limit"',
                "null",
                "true",
                "1",
                "-0.5e3",
                '{"id": "1"}',
                '{"topic_id": 2, "limit": "7"}',
                "9" * 5000,
                "[" * 3000,
            ]
        ),
        st.text(max_size=8),
    ),
    max_size=30,
).map("".join)


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.text(), shaped_text))
def test_parse_topics_raises_only_topic_file_error(text: str) -> None:
    try:
        topics = parse_topics(text, "fuzz")
    except TopicFileError as err:
        assert err.line >= 1 and err.column >= 1
    else:
        assert len(topics) >= 1
        assert all(isinstance(topic_id, str) for topic_id in topics)
