"""Celery consumer: one task per event coming off the queue, plus a few scheduled tasks."""
import os
from datetime import datetime, timezone

import pymongo
from apscheduler.schedulers.background import BackgroundScheduler
from celery import Celery
from celery.schedules import crontab
from pymongo import InsertOne, MongoClient

app = Celery("worker", broker=os.environ.get("BROKER_URL", "redis://localhost"))
mongo = MongoClient(os.environ["MONGO_URL"])
shop = mongo.get_database("shop")
activity = shop.activity


class Consumer:
    def __init__(self, client: MongoClient):
        self.db = client.shop
        self.events = self.db["events"]
        self.sensors = self.db.sensor_buckets

    def handle(self, event: dict) -> None:
        self.events.insert_one(event)
        if event["type"] == "page_view":
            self.db.products.update_one(
                {"_id": event["product_id"]},
                {"$inc": {"views": 1}},  # expect: counter-inc
            )
            # Hourly bucket per product: one document per period, not one hot document.
            self.db.product_hourly.update_one(
                {"product_id": event["product_id"], "hour": event["at"].replace(minute=0, second=0)},
                {"$inc": {"views": 1}},  # ok: counter-inc — time-bucketed counter
                upsert=True,
            )
        elif event["type"] == "reading":
            self.sensors.update_one(
                {"sensor_id": event["sensor_id"], "n": {"$lt": 500}},
                {"$push": {"readings": event["value"]}, "$inc": {"n": 1}},  # ok: unbounded-push, counter-inc — bucket
                upsert=True,
            )


@app.task
def process_event(event: dict) -> None:
    # One task per incoming event: not a batch job.
    shop.users.update_one(
        {"_id": event["user_id"]},
        {
            "$push": {"activity": event},  # expect: unbounded-push
            "$set": {"last_seen": datetime.now(timezone.utc)},
        },
    )
    shop.campaigns.find_one_and_update(
        {"code": event["campaign"]},
        {"$inc": {"clicks": 1}},  # expect: counter-inc
    )


@app.task
def ingest_events(events: list[dict]) -> None:
    requests = [InsertOne(e) for e in events]
    for e in events:
        requests.append(
            pymongo.UpdateOne(
                {"_id": e["user_id"]},
                {"$addToSet": {"devices": e["device"]}},  # expect: unbounded-push
            )
        )
        requests.append(
            pymongo.UpdateOne(
                {"_id": e["order_id"]},
                {"$push": {"log": {"$each": e["lines"], "$slice": -200}}},  # ok: unbounded-push — $slice
            )
        )
    activity.bulk_write(requests, ordered=False)


@app.task
def refresh_product_stats() -> None:
    # Scheduled below with add_periodic_task: a periodic recomputation.
    for p in shop.products.find({}, {"_id": 1}):
        shop.stats.update_one(
            {"_id": p["_id"]},
            {"$inc": {"refreshes": 1}},  # ok: counter-inc — periodic task
            upsert=True,
        )


@app.on_after_configure.connect
def setup_periodic_tasks(sender, **kwargs):
    sender.add_periodic_task(crontab(hour=3, minute=0), refresh_product_stats.s())


def compact_sessions() -> None:
    shop.meta.update_one({"_id": "sessions"}, {"$inc": {"compactions": 1}})  # ok: counter-inc — APScheduler job


scheduler = BackgroundScheduler()
scheduler.add_job(compact_sessions, "cron", hour=2)
