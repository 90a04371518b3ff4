use rand::SeedableRng;
#[test]
fn builtin_compiles() {
    let reg = tarot_engine::Registry::builtin().unwrap_or_else(|d| panic!("{d}"));
    for (id, n) in [("fft-4p", 4), ("marolles-1637", 3), ("basic", 3), ("basic", 4), ("basic", 6), ("basic", 2), ("basic", 5)] {
        let r = reg.get(id).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for i in 0..200 {
            let g = tarot_engine::simulate::random_game(r, n, &Default::default(), &mut rng).unwrap_or_else(|e| panic!("{id} {i}: {e}"));
            let v = tarot_engine::replay(r, &g).unwrap_or_else(|e| panic!("{id} {i}: {e}"));
            if i < 1 { println!("{}", v.to_text()); }
        }
    }
}
