mod common;

use common::*;
use mongolint::report::Format;

#[test]
fn print_all() {
    let a = sample_analysis();
    for f in [Format::Text, Format::Sarif, Format::Json] {
        println!("{}", render_to_string(&a, f));
    }
}
