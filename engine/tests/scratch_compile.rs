#[test]
fn builtin_compiles() {
    match tarot_engine::Registry::builtin() {
        Ok(r) => println!("{:?}", r.ids().collect::<Vec<_>>()),
        Err(d) => panic!("{d}"),
    }
}
