fn main() {
    std::process::exit(mongolint::cli::main());
}
