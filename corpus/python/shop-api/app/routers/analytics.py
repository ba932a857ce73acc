from datetime import date, datetime, timedelta, timezone

from fastapi import APIRouter, Request

from ..db import client, db

router = APIRouter()
EVENTS = "events"


def events_for(day: date):
    # One collection per day: events_2024_05_10.
    return db[f"events_{day:%Y_%m_%d}"]  # expect: dynamic-collection-name


def monthly_collection():
    now = datetime.now(timezone.utc)
    return db[now.strftime("metrics_%Y%m")]  # expect: dynamic-collection-name


def tenant_orders(tenant_id: str):
    return client.shop["orders_%s" % tenant_id]  # expect: dynamic-collection-name


def org_audit(org_id: str):
    return db.get_collection("audit_{}".format(org_id))  # expect: dynamic-collection-name


def customer_notes(customer_id: str):
    return db["notes_" + customer_id]  # expect: dynamic-collection-name


def events_collection():
    return db[EVENTS]  # ok: dynamic-collection-name — a module constant


def raw_collection(name: str):
    return db[name]  # ok: dynamic-collection-name — plain parameter, no date or entity evidence


@router.post("/track")
async def track(request: Request, event: dict):
    await events_for(date.today()).insert_one(event)
    await db.page_stats.update_one(
        {"path": event["path"]},
        {"$inc": {"hits": 1}},  # expect: counter-inc
        upsert=True,
    )


@router.get("/funnel")
async def funnel(day: str, skip: int = 0):
    stages = [
        {"$match": {"day": day}},
        {
            "$lookup": {
                "from": "sessions",
                "let": {"sid": "$session_id"},
                "pipeline": [
                    {"$match": {"$expr": {"$eq": ["$_id", "$$sid"]}}},
                    {"$lookup": {"from": "users", "localField": "user_id", "foreignField": "_id", "as": "user"}},  # expect: lookup-chain
                ],
                "as": "session",
            }
        },
        {"$skip": skip},  # expect: skip-paging
        {"$limit": 100},
    ]
    return await db.events.aggregate(stages).to_list(None)


@router.get("/dashboard")
async def dashboard():
    pipeline = [
        {
            "$facet": {
                "orders": [
                    {"$lookup": {"from": "orders", "localField": "_id", "foreignField": "customer_id", "as": "orders"}},
                ],
                "carts": [
                    {"$lookup": {"from": "carts", "localField": "_id", "foreignField": "user_id", "as": "carts"}},  # expect: lookup-chain
                ],
            }
        }
    ]
    return await db.users.aggregate(pipeline).to_list(1)


@router.get("/top-products")
async def top_products(since_days: int = 7):
    since = datetime.now(timezone.utc) - timedelta(days=since_days)
    pipeline = [{"$match": {"at": {"$gte": since}, "type": "purchase"}}]
    pipeline.extend(
        [
            {"$group": {"_id": "$product_id", "buyers": {"$addToSet": "$user_id"}, "n": {"$sum": 1}}},  # ok: unbounded-push — accumulator
            {"$sort": {"n": -1}},
            {"$limit": 10},
        ]
    )
    pipeline += [{"$lookup": {"from": "products", "localField": "_id", "foreignField": "_id", "as": "product"}}]
    pipeline.append({"$lookup": {"from": "brands", "localField": "product.brand_id", "foreignField": "_id", "as": "brand"}})  # expect: lookup-chain
    return await db.events.aggregate(pipeline).to_list(10)
