"""`{% role_legend %}`: the line that names the protocol's role letters (9.4.1) in the
reader's language, beside every table and form that shows them."""

from __future__ import annotations

from typing import Any

from django import template

from mafiatab.messages import role_legend_items

register = template.Library()


@register.inclusion_tag("games/_role_legend.html")
def role_legend() -> dict[str, Any]:
    return {"roles": role_legend_items()}
