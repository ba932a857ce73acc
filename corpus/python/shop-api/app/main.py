from fastapi import FastAPI

from .db import ensure_indexes
from .routers import analytics, orders, products, users

app = FastAPI(title="shop")
app.include_router(orders.router, prefix="/orders")
app.include_router(products.router, prefix="/products")
app.include_router(users.router, prefix="/users")
app.include_router(analytics.router, prefix="/analytics")


@app.on_event("startup")
async def startup() -> None:
    await ensure_indexes()
