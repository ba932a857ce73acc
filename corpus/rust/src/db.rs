//! Connection and collection handles for the shop service (mongodb 3.x).

use chrono::{NaiveDate, Utc};
use mongodb::{bson::Document, options::ClientOptions, Client, Collection, Database};

use crate::models::{AuditEntry, Event, Order, Product, User};

const USERS: &str = "users";
const ARCHIVE_PREFIX: &str = "archive";
const ARCHIVE_SUFFIX: &str = "orders";

pub struct Settings {
    pub mongo_uri: String,
    pub database: String,
    pub audit_collection: String,
}

#[derive(Clone)]
pub struct Db {
    pub db: Database,
    pub orders: Collection<Order>,
    pub products: Collection<Product>,
    pub users: Collection<User>,
}

impl Db {
    pub async fn connect(settings: &Settings) -> mongodb::error::Result<Self> {
        let options = ClientOptions::parse(&settings.mongo_uri).await?;
        let client = Client::with_options(options)?;
        let db = client.database(&settings.database);
        Ok(Self {
            orders: db.collection("orders"),
            products: db.collection::<Product>("products"),
            users: db.collection(USERS),
            db,
        })
    }

    pub fn raw(&self, name: &str) -> Collection<Document> {
        // ok: dynamic-collection-name — a plain parameter, no date or entity evidence
        self.db.collection::<Document>(name)
    }

    pub fn audit(&self, settings: &Settings) -> Collection<AuditEntry> {
        self.db
            .collection(&format!("{}_log", settings.audit_collection)) // ok: dynamic-collection-name — from configuration
    }

    pub fn archive(&self) -> Collection<Order> {
        self.db
            .collection(&format!("{}_{}", ARCHIVE_PREFIX, ARCHIVE_SUFFIX)) // ok: dynamic-collection-name — constants on both sides
    }

    /// One collection per day of events.
    pub fn events_for(&self, day: NaiveDate) -> Collection<Event> {
        self.db
            .collection::<Event>(&format!("events_{}", day.format("%Y_%m_%d"))) // expect: dynamic-collection-name
    }

    /// This month's rollup collection.
    pub fn monthly_rollup(&self) -> Collection<Document> {
        let suffix = Utc::now().format("%Y%m").to_string();
        let name = format!("rollup_{suffix}");
        self.db.collection(&name) // expect: dynamic-collection-name
    }

    /// One collection of orders per tenant.
    pub fn tenant_orders(&self, tenant_id: &str) -> Collection<Order> {
        self.db.collection(&format!("orders_{tenant_id}")) // expect: dynamic-collection-name
    }
}
