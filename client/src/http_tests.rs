use pretty_assertions::assert_eq;

use super::*;

#[test]
fn only_endpoints_on_this_machine_bypass_the_environments_proxy() {
    let cases = [
        "http://127.0.0.1:8080/v1/responses",
        "http://127.3.4.5/v1/responses",
        "http://localhost:3000/responses",
        "http://LOCALHOST/responses",
        "http://[::1]:9000/v1/responses",
        "https://api.openai.com/v1/responses",
        "http://10.0.0.7/v1/responses",
        "http://localhost.example.com/responses",
        "http://[2001:db8::1]/responses",
    ];
    let uses: Vec<(&str, ProxyUse)> = cases
        .iter()
        .map(|url| (*url, proxy_use(&Url::parse(url).expect("a URL"))))
        .collect();
    assert_eq!(
        uses,
        [
            ("http://127.0.0.1:8080/v1/responses", ProxyUse::Direct),
            ("http://127.3.4.5/v1/responses", ProxyUse::Direct),
            ("http://localhost:3000/responses", ProxyUse::Direct),
            ("http://LOCALHOST/responses", ProxyUse::Direct),
            ("http://[::1]:9000/v1/responses", ProxyUse::Direct),
            ("https://api.openai.com/v1/responses", ProxyUse::Environment),
            ("http://10.0.0.7/v1/responses", ProxyUse::Environment),
            (
                "http://localhost.example.com/responses",
                ProxyUse::Environment
            ),
            ("http://[2001:db8::1]/responses", ProxyUse::Environment),
        ]
    );
}
