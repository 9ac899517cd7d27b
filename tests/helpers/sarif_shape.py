"""The essential constraints of the SARIF 2.1.0 schema (and of GitHub code scanning's
upload), checked offline: returns the list of violations, empty when the log is fine."""

from __future__ import annotations

from typing import Any

LEVELS = {"none", "note", "warning", "error"}
COLUMN_KINDS = {"utf16CodeUnits", "unicodeCodePoints"}


def _positive_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def sarif_violations(log: Any) -> list[str]:
    problems: list[str] = []
    if not isinstance(log, dict):
        return ["the log is not an object"]
    if log.get("version") != "2.1.0":
        problems.append("version must be '2.1.0'")
    if not isinstance(log.get("$schema"), str) or not log["$schema"].startswith("https://"):
        problems.append("$schema must be a URI")
    runs = log.get("runs")
    if not isinstance(runs, list) or not runs:
        return problems + ["runs must be a non-empty array"]
    for r, run in enumerate(runs):
        driver = run.get("tool", {}).get("driver", {})
        if not isinstance(driver.get("name"), str) or not driver["name"]:
            problems.append(f"runs[{r}].tool.driver.name is required")
        if "informationUri" in driver and not str(driver["informationUri"]).startswith(
            ("https://", "http://")
        ):
            problems.append(f"runs[{r}].tool.driver.informationUri must be an absolute URI")
        if "columnKind" in run and run["columnKind"] not in COLUMN_KINDS:
            problems.append(f"runs[{r}].columnKind must be one of {sorted(COLUMN_KINDS)}")
        rules = driver.get("rules", [])
        ids = [rule.get("id") for rule in rules]
        if len(set(ids)) != len(ids):
            problems.append(f"runs[{r}] rule ids must be unique")
        for i, rule in enumerate(rules):
            if not isinstance(rule.get("id"), str):
                problems.append(f"rules[{i}].id is required")
            if not isinstance(rule.get("shortDescription", {}).get("text"), str):
                problems.append(f"rules[{i}].shortDescription.text must be a string")
        for k, result in enumerate(run.get("results", [])):
            where = f"runs[{r}].results[{k}]"
            if not isinstance(result.get("message", {}).get("text"), str) or not result["message"]["text"]:
                problems.append(f"{where}.message.text is required")
            if result.get("level", "warning") not in LEVELS:
                problems.append(f"{where}.level must be one of {sorted(LEVELS)}")
            if result.get("ruleId") not in ids:
                problems.append(f"{where}.ruleId must name a rule of the driver")
            index = result.get("ruleIndex")
            if index is not None and (
                not isinstance(index, int) or index >= len(ids) or ids[index] != result["ruleId"]
            ):
                problems.append(f"{where}.ruleIndex must point at the rule named by ruleId")
            locations = result.get("locations")
            if not isinstance(locations, list) or not locations:
                problems.append(f"{where}.locations: GitHub needs at least one location")
                continue
            for loc in locations:
                physical = loc.get("physicalLocation", {})
                uri = physical.get("artifactLocation", {}).get("uri")
                if not isinstance(uri, str) or not uri or "\\" in uri or " " in uri:
                    problems.append(f"{where} artifactLocation.uri must be a URI reference with '/'")
                region = physical.get("region", {})
                for key in ("startLine", "startColumn", "endLine", "endColumn"):
                    if key in region and not _positive_int(region[key]):
                        problems.append(f"{where} region.{key} must be an integer >= 1")
                if not _positive_int(region.get("startLine")):
                    problems.append(f"{where} region.startLine is required")
                elif region.get("endLine", region["startLine"]) < region["startLine"] or (
                    region.get("endLine", region["startLine"]) == region["startLine"]
                    and region.get("endColumn", 2**31) < region.get("startColumn", 1)
                ):
                    problems.append(f"{where} region ends before it starts")
    return problems
