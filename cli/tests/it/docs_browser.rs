//! The docs page in a real headless Chromium: the Swagger UI is served by the archive itself (the
//! `vendored` assets), so it renders the operations with no network. `scripts/test.sh` installs
//! Debian's chromium; this test fails, saying so, when it is missing.

use crate::common;

use crate::common::{headless, spawn_fresh};

#[test]
#[ignore = "needs chromium: `scripts/test.sh` runs it (`cargo test -- --include-ignored`)"]
fn the_docs_page_renders_the_operations_offline() {
    let server = spawn_fresh("docs", &[]);
    let url = server.url("/docs/");
    // A picture for people: target/docs-page.png, from the same Chromium as the DOM.
    let png = common::root().join("target/docs-page.png");
    std::fs::create_dir_all(png.parent().unwrap()).unwrap();
    let _ = std::fs::remove_file(&png);
    let out = headless(&url, &["--virtual-time-budget=20000", "--dump-dom", &format!("--screenshot={}", png.display()), "--window-size=1280,1600"]);
    let dom = String::from_utf8_lossy(&out.stdout);
    assert!(dom.contains("opblock"), "no operations rendered:\n{}\n{}", &dom[..dom.len().min(2000)], String::from_utf8_lossy(&out.stderr));
    for path in ["/validate", "/games/{id}/events", "/sessions/{id}", "/rulesets/{id}"] {
        assert!(dom.contains(path), "{path} is not listed");
    }
    assert!(!dom.contains("validator.swagger.io"), "the online validator badge is on");
    assert!(png.exists(), "no screenshot of {url}");
}

// The pages for people are tested in `pages_browser.rs`.
