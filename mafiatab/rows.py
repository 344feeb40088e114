"""One model row by one column, in one plain query, for the requests every visitor
makes again and again (the tournament of a standings page, the signed-in account).

The ORM spends more time preparing such a query and its values than the database
spends answering it. `row_by` keeps, per database connection and model, the query
text and the converters of its columns, and builds the instance with the documented
`Model.from_db`, so that the instance is the one the ORM would have built.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar
from weakref import WeakKeyDictionary

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Model

M = TypeVar("M", bound=Model)


@dataclass(frozen=True)
class _Plan:
    sql: str
    names: list[str]
    converters: list[tuple[int, list[Callable[..., Any]], Any]]
    """(column index, its converters, the expression they are given)."""


_plans: WeakKeyDictionary[BaseDatabaseWrapper, dict[tuple[type[Model], str], _Plan]] = (
    WeakKeyDictionary()
)


def _plan(connection: BaseDatabaseWrapper, model: type[Model], column: str) -> _Plan:
    known = _plans.setdefault(connection, {})
    plan = known.get((model, column))
    if plan is None:
        quote = connection.ops.quote_name
        table = model._meta.db_table
        fields = model._meta.concrete_fields
        columns = ", ".join(quote(field.column) for field in fields)
        converters = []
        for index, field in enumerate(fields):
            expression = field.get_col(table)
            found = connection.ops.get_db_converters(expression)
            found += field.get_db_converters(connection)
            if found:
                converters.append((index, found, expression))
        plan = _Plan(
            sql=f"SELECT {columns} FROM {quote(table)} WHERE {quote(column)} = %s",
            names=[field.attname for field in fields],
            converters=converters,
        )
        known[(model, column)] = plan
    return plan


def row_by(model: type[M], column: str, value: Any) -> M | None:
    """The instance of `model` whose `column` equals `value` (a unique column), or None."""
    connection = connections[DEFAULT_DB_ALIAS]
    plan = _plan(connection, model, column)
    with connection.cursor() as cursor:
        cursor.execute(plan.sql, [value])
        row = cursor.fetchone()
    if row is None:
        return None
    values = list(row)
    for index, converters, expression in plan.converters:
        for convert in converters:
            values[index] = convert(values[index], expression, connection)
    return model.from_db(connection.alias, plan.names, values)
