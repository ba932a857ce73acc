//! The Rust frontend's `doc!` / `bson!` token-tree parser: arbitrary bytes as the body of a `doc!`
//! (and a `bson!`, and inside a `vec![..]` pipeline) passed to driver calls on a typed collection.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let body = String::from_utf8_lossy(data);
    let src = format!(
        "fn f(c: Collection<D>, n: u64) {{\n    c.update_one(doc! {{ \"_id\": 1 }}, doc! {{ {body} }});\n    c.aggregate(vec![doc! {{ {body} }}, bson!({body})]);\n    c.find(doc! {{ {body} }}).skip(n);\n}}\n"
    );
    let _ = mongolint::analysis::check_source("f.rs", &src, &mongolint::rules::Settings::default());
});
