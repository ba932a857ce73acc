//! `mongolint collections`: the access map of the corpus applications, as JSON (docs/collections-json.md).

use serde_json::Value;
use std::process::Command;

fn map(app: &str) -> Value {
    let o = Command::new(env!("CARGO_BIN_EXE_mongolint"))
        .args(["collections", app, "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).unwrap()
}

fn collection<'a>(m: &'a Value, name: &str) -> &'a Value {
    m["collections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("no collection `{name}`"))
}

fn strings(v: &Value, key: &str) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x[key].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn express_orders_has_its_indexes_queries_and_joins() {
    let m = map("corpus/express-api");
    assert_eq!(m["version"], 1);
    let orders = collection(&m, "orders");
    // createIndexes([{key, name}, ..]) in src/indexes.js: one declaration per entry, with names.
    let names: Vec<&str> = orders["indexes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|i| i["name"].as_str())
        .collect();
    assert_eq!(names, vec!["customer_recent", "status_recent", "customer"]);
    let first = &orders["indexes"][0];
    assert_eq!(
        strings(&first["keys"], "field"),
        vec!["customerId", "createdAt"]
    );
    assert_eq!(first["keys"][1]["type"], "-1");
    assert_eq!(first["path"], "corpus/express-api/src/indexes.js");
    // Queried and sorted fields, across routes/orders.js and routes/reports.js.
    let queried = strings(&orders["queried_fields"], "field");
    for f in ["customerId", "createdAt", "_id"] {
        assert!(queried.contains(&f.to_string()), "{queried:?}");
    }
    assert!(strings(&orders["sorted_fields"], "field").contains(&"createdAt".to_string()));
    assert!(strings(&orders["pushed_arrays"], "field").contains(&"statusHistory".to_string()));
    // Joins to customers, by `_id`.
    let joins = orders["joins"].as_array().unwrap();
    assert!(joins.iter().any(|j| j["from"] == "customers"
        && j["foreign_field"] == "_id"
        && j["stage"] == "$lookup"));
    // Operations by kind, with counts that match their sites.
    for k in orders["operations"].as_array().unwrap() {
        assert_eq!(
            k["count"].as_u64().unwrap() as usize,
            k["sites"].as_array().unwrap().len()
        );
    }
    assert!(strings(&orders["operations"], "kind").contains(&"count".to_string()));
    // Read together in one route handler.
    assert!(m["read_together"].as_array().unwrap().iter().any(|r| {
        r["function"] == "router.get /customers"
            && r["collections"] == serde_json::json!(["customers", "orders"])
    }));
    assert!(collection(&m, "customers")["read_with"]
        .as_array()
        .unwrap()
        .contains(&serde_json::json!("orders")));
    // Per-entity collection names are a family, not a collection.
    let fams = strings(&m["dynamic_families"], "template");
    assert!(fams.contains(&"carts_{userId}".to_string()), "{fams:?}");
    assert!(collection(&m, "products")["indexes"][0]["options"] == serde_json::json!(["unique"]));
}

#[test]
fn mongoose_schema_indexes_and_cross_file_models() {
    let m = map("corpus/mongoose-app");
    let posts = collection(&m, "posts");
    let idx = posts["indexes"].as_array().unwrap();
    assert_eq!(idx.len(), 7);
    assert!(idx
        .iter()
        .all(|i| i["path"] == "corpus/mongoose-app/src/models/Post.ts"));
    assert!(idx
        .iter()
        .any(|i| i["options"] == serde_json::json!(["partial"])));
    assert!(idx.iter().any(|i| i["keys"][0]["type"] == "text"));
    // Field option `unique: true` in models/User.ts.
    let users = collection(&m, "users");
    assert_eq!(users["indexes"][0]["declared_by"], "unique");
    assert_eq!(users["indexes"][0]["keys"][0]["field"], "email");
    // Models imported by controllers and services resolve to their collections.
    let sites: Vec<String> = posts["operations"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|k| k["sites"].as_array().unwrap().iter())
        .map(|s| s["path"].as_str().unwrap().to_string())
        .collect();
    assert!(sites
        .iter()
        .any(|p| p.ends_with("controllers/postController.ts")));
    assert!(sites
        .iter()
        .any(|p| p.ends_with("services/digestService.ts")));
    let comments = collection(&m, "comments");
    assert!(comments["joins"]
        .as_array()
        .unwrap()
        .iter()
        .any(|j| j["from"] == "comments" && j["foreign_field"] == "parent"));
}

#[test]
fn python_and_rust_index_declarations() {
    let py = map("corpus/python/shop-api");
    let products = collection(&py, "products");
    let idx = products["indexes"].as_array().unwrap();
    assert_eq!(idx[0]["declared_by"], "IndexModel");
    assert_eq!(idx[0]["name"], "sku_unique");
    let sessions = collection(&py, "sessions");
    assert_eq!(
        sessions["indexes"][0]["options"],
        serde_json::json!(["ttl"])
    );
    let blog = map("corpus/python/blog-mongoengine");
    let posts = collection(&blog, "blog_post");
    assert!(posts["indexes"]
        .as_array()
        .unwrap()
        .iter()
        .any(|i| i["keys"][0]["type"] == "text"));
    let rs = map("corpus/rust");
    let reviews = collection(&rs, "reviews");
    assert_eq!(
        strings(&reviews["indexes"][0]["keys"], "field"),
        vec!["sku", "created_at"]
    );
}

#[test]
fn the_map_is_deterministic_and_has_a_text_form() {
    let a = Command::new(env!("CARGO_BIN_EXE_mongolint"))
        .args(["collections", "corpus", "--format", "json"])
        .output()
        .unwrap();
    let b = Command::new(env!("CARGO_BIN_EXE_mongolint"))
        .args(["collections", "corpus", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(a.stdout, b.stdout);
    let t = Command::new(env!("CARGO_BIN_EXE_mongolint"))
        .args(["collections", "corpus/express-api"])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let text = String::from_utf8(t.stdout).unwrap();
    assert!(text.contains("orders  (driver)"), "{text}");
    assert!(
        text.contains("index {customerId: 1, createdAt: -1}"),
        "{text}"
    );
    assert!(
        text.contains("joins $lookup customers on customerId → _id"),
        "{text}"
    );
}
