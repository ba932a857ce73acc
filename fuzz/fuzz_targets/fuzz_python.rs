//! Arbitrary bytes (lossy UTF-8) through a language frontend and the rules: IR out, never a panic,
//! never a hang.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = mongolint::analysis::check_source("app.py", &text, &mongolint::rules::Settings::default());
});
