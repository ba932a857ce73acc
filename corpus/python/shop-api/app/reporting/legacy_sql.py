"""The old reporting database (PostgreSQL through SQLAlchemy): no MongoDB here."""
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

engine = create_engine("postgresql://reports@localhost/reports")


def invoices_page(session: Session, invoice_model, page: int, size: int = 50):
    # SQLAlchemy offset paging: not a MongoDB driver call.
    stmt = select(invoice_model).order_by(invoice_model.id).offset(page * size).limit(size)
    return session.execute(stmt).scalars().all()


def merge_totals(totals: dict, extra: dict) -> dict:
    merged = dict(totals)
    merged.update(extra)  # dict.update: not an update operation
    merged.update({"$push": "literal key in a plain dict"})  # dict.update: still not a driver call
    lines = []
    lines.append({"total": sum(merged.values())})  # list.append
    return merged


def find_header(text: str) -> int:
    return text.find("Invoice")  # str.find
