// mimalloc serves both Rust's allocations (src/allocator.rs) and tree-sitter's (its C parser
// allocates a subtree per node): measured in bench/README.md. Built without transparent huge pages
// and overriding `malloc` (Cargo.toml), which a program that links the library gets as well. Only
// the binary makes it Rust's global allocator; the library leaves that choice to its users.
#[global_allocator]
static GLOBAL: mongolint::allocator::MiMalloc = mongolint::allocator::MiMalloc;

fn main() {
    // SAFETY: called once, before any tree-sitter object exists. tree-sitter then allocates from
    // a per-thread arena while a file is parsed and extracted, from mimalloc elsewhere.
    unsafe { mongolint::lang::arena::install() };
    std::process::exit(mongolint::cli::main());
}
