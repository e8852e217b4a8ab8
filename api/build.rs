// The migrations are embedded at compile time; rebuild when a file is added
// to (or changed in) either tree, not only when an already-embedded one
// changes.
fn main() {
    println!("cargo:rerun-if-changed=../migrations");
}
