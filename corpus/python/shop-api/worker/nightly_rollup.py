"""Nightly rollup of yesterday's sales into daily totals (run from cron)."""
from datetime import datetime, timedelta, timezone

from pymongo import MongoClient, UpdateOne

client = MongoClient()
db = client.shop


def run() -> None:
    since = datetime.now(timezone.utc) - timedelta(days=1)
    totals = db.orders.aggregate(
        [
            {"$match": {"created_at": {"$gte": since}, "status": "paid"}},
            {"$unwind": "$items"},
            {"$group": {"_id": "$items.product_id", "qty": {"$sum": "$items.qty"}, "orders": {"$push": "$_id"}}},  # ok: unbounded-push — accumulator
        ]
    )
    ops = [
        UpdateOne({"_id": t["_id"]}, {"$inc": {"sold": t["qty"]}}, upsert=True)  # ok: counter-inc — computed amount
        for t in totals
    ]
    if ops:
        db.product_totals.bulk_write(ops)
    db.jobs.update_one({"_id": "nightly_rollup"}, {"$inc": {"runs": 1}})  # ok: counter-inc — periodic job file


if __name__ == "__main__":
    run()
