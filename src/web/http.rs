//! The HTTP edge: what a request asks (its path and query, decoded), the checks every
//! request passes (method, size, token, host name), and the replies, whose errors
//! are one line of text with a 4xx or 5xx status.

use super::State;
use std::collections::HashMap;

/// Longest request target accepted (a play request's transcript fits well within).
const LONGEST_URL: usize = 4096;

/// What a request asks, decoded.
#[derive(Debug, Default)]
pub struct Want {
    /// The path, such as `/folder`.
    pub path: String,
    /// A POST (play's actions) rather than a GET or HEAD.
    pub post: bool,
    query: HashMap<String, String>,
    /// The token to keep in a cookie (it came in the query).
    pub set_cookie: Option<String>,
}

impl Want {
    /// A query value, decoded.
    pub fn query(&self, key: &str) -> Option<String> {
        self.query.get(key).cloned()
    }

    /// A query value that must be a whole number (None when absent or not one).
    pub fn query_u64(&self, key: &str) -> Option<u64> {
        self.query.get(key).and_then(|v| v.parse().ok())
    }
}

/// A reply: status, content type, body, and a cookie to set.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub kind: &'static str,
    pub body: Vec<u8>,
    cookie: Option<String>,
}

impl Reply {
    pub fn html(body: String) -> Reply {
        Reply {
            status: 200,
            kind: "text/html; charset=utf-8",
            body: body.into_bytes(),
            cookie: None,
        }
    }

    pub fn json(body: String) -> Reply {
        Reply {
            status: 200,
            kind: "application/json",
            body: body.into_bytes(),
            cookie: None,
        }
    }

    /// A refusal: the status and one line saying what was wrong and what to do.
    pub fn error(status: u16, line: &str) -> Reply {
        let mut body = line.replace(['\n', '\r'], " ");
        body.push('\n');
        Reply {
            status,
            kind: "text/plain; charset=utf-8",
            body: body.into_bytes(),
            cookie: None,
        }
    }

    pub fn with_cookie(mut self, token: &str) -> Reply {
        self.cookie = Some(token.to_string());
        self
    }
}

impl Reply {
    /// The reply as bytes on the wire: its head (with `Connection: close` when the
    /// connection ends after it) and, unless the request was a HEAD, its body.
    pub fn to_bytes(&self, head_only: bool, close: bool) -> Vec<u8> {
        let mut out = format!(
            "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-store\r\n{SAFE_HEADERS}",
            self.status,
            reason(self.status),
            self.kind,
            self.body.len()
        );
        if let Some(token) = &self.cookie {
            out.push_str(&format!(
                "Set-Cookie: reversi_lab_token={token}; Path=/; HttpOnly; SameSite=Strict\r\n"
            ));
        }
        if close {
            out.push_str("Connection: close\r\n");
        }
        out.push_str("\r\n");
        let mut bytes = out.into_bytes();
        if !head_only {
            bytes.extend_from_slice(&self.body);
        }
        bytes
    }
}

/// Headers every reply carries: nothing outside the server (the pages inline their
/// styles and scripts), and no guessing of content types.
pub const SAFE_HEADERS: &str = "Content-Security-Policy: default-src 'self'; style-src 'self' 'unsafe-inline'; script-src 'self' 'unsafe-inline'; img-src 'self' data:\r\nX-Content-Type-Options: nosniff\r\n";

/// The reason phrase of a status the server gives.
fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        409 => "Conflict",
        410 => "Gone",
        413 => "Content Too Large",
        414 => "URI Too Long",
        422 => "Unprocessable Content",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        _ => "Error",
    }
}

/// A request's head as read off the connection: its method, target, HTTP version
/// and headers (names as sent; values as text, any bytes that are not UTF-8 replaced).
#[derive(Debug)]
pub struct Head {
    pub method: String,
    pub target: String,
    /// The minor version: 1 for HTTP/1.1, 0 for HTTP/1.0.
    pub version: u8,
    pub headers: Vec<(String, String)>,
}

impl Head {
    /// The first header of this name (names compare without case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Whether the client keeps the connection for a next request: HTTP/1.1 unless
    /// it says `Connection: close`; HTTP/1.0 never (its keep-alive is not spoken here).
    pub fn keeps_alive(&self) -> bool {
        self.version >= 1
            && !self
                .header("Connection")
                .is_some_and(|v| v.split(',').any(|t| t.trim().eq_ignore_ascii_case("close")))
    }

    /// Whether a body follows the head (one the server never reads).
    pub fn has_body(&self) -> bool {
        self.header("Transfer-Encoding").is_some()
            || self
                .header("Content-Length")
                .is_some_and(|n| n.trim().parse::<u64>() != Ok(0))
    }
}

/// The checks every request passes, and its path and query decoded.
pub fn check(state: &State, request: &Head) -> Result<Want, Reply> {
    let post = match request.method.as_str() {
        "GET" | "HEAD" => false,
        "POST" => true,
        other => {
            return Err(Reply::error(
                405,
                &format!("method {other} is not served: the pages take GET, play's actions POST"),
            ))
        }
    };
    let url = request.target.as_str();
    if url.len() > LONGEST_URL {
        return Err(Reply::error(
            414,
            &format!("the address is longer than {LONGEST_URL} bytes"),
        ));
    }
    if request
        .header("Content-Length")
        .is_some_and(|n| n.trim().parse::<u64>().is_err())
    {
        return Err(Reply::error(
            400,
            "Content-Length is not a number of bytes: requests carry no body, so send none (or Content-Length: 0)",
        ));
    }
    // A chunked body has no length to see: its header alone refuses it.
    if request.has_body() {
        return Err(Reply::error(
            413,
            "requests carry no body: give everything in the query (?key=value)",
        ));
    }
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let path = decode(path)
        .ok_or_else(|| Reply::error(400, "the path is not valid percent-encoded UTF-8"))?;
    let mut want = Want {
        path,
        post,
        ..Want::default()
    };
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let (Some(key), Some(value)) = (decode(key), decode(value)) else {
            return Err(Reply::error(
                400,
                "the query is not valid percent-encoded UTF-8",
            ));
        };
        want.query.insert(key, value);
    }
    let header = |name: &str| request.header(name).map(str::to_string);
    if state.loopback {
        // Another name than a loopback one means a page elsewhere reached us through
        // its own name (DNS rebinding): refused, as the results are not its to read.
        let host = header("Host").unwrap_or_default();
        let name = host.rsplit_once(':').map_or(host.as_str(), |(n, port)| {
            if port.bytes().all(|b| b.is_ascii_digit()) {
                n
            } else {
                host.as_str()
            }
        });
        // 127.x.y.z as an address, not any name that starts like one (127.0.0.1.evil.com).
        let loopback_address = name
            .parse::<std::net::Ipv4Addr>()
            .is_ok_and(|address| address.is_loopback());
        if !matches!(name, "localhost" | "[::1]") && !loopback_address {
            return Err(Reply::error(403, "this server answers only to localhost, 127.0.0.1 or [::1]: open it by one of those names"));
        }
    }
    if let Some(token) = &state.token {
        let given = want
            .query("token")
            .or_else(|| {
                header("Cookie").and_then(|c| {
                    c.split(';')
                        .filter_map(|kv| kv.trim().split_once('='))
                        .find(|(k, _)| *k == "reversi_lab_token")
                        .map(|(_, v)| v.to_string())
                })
            })
            .or_else(|| {
                header("Authorization").and_then(|a| a.strip_prefix("Bearer ").map(str::to_string))
            });
        match given {
            Some(g) if same(&g, token) => {
                if want.query.contains_key("token") {
                    want.set_cookie = Some(token.clone());
                }
            }
            Some(_) => return Err(Reply::error(403, "wrong token: open the address the server printed, with its ?token=")),
            None => return Err(Reply::error(401, "this server needs its token: open the address it printed, with ?token=, or send Authorization: Bearer TOKEN")),
        }
    }
    Ok(want)
}

/// Compares without stopping at the first difference, so that timing tells
/// nothing of the token.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

/// Percent-decoding (and `+` as a space, as forms send it) into UTF-8.
pub fn decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

/// Percent-encoding of a query value.
pub fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~' | b'/') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decoding_round_trips_and_refuses_bad_escapes() {
        for text in ["a b/c", "run 1/ü", "x&y=z%"] {
            assert_eq!(decode(&encode(text)).as_deref(), Some(text));
        }
        assert_eq!(decode("%2e%2E"), Some("..".into()));
        assert_eq!(decode("%zz"), None);
        assert_eq!(decode("%4"), None);
        assert_eq!(decode("%ff"), None, "not UTF-8");
        assert!(same("abc", "abc") && !same("abc", "abd") && !same("abc", "ab"));
    }
}
