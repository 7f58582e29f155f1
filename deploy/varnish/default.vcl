vcl 4.1;

# Varnish in front of Sahara Média (docs/deploy.md). Debian's `varnish` and `varnish-modules` (xkey) packages.
# The origin decides what is kept and for how long (Cache-Control: s-maxage, stale-while-revalidate,
# stale-if-error) and names what each answer shows (Surrogate-Key); the server purges those keys here when the
# newsroom changes something (CDN_PURGE=varnish, VARNISH_PURGE_URL=http://<this host>:<port>/).
# The test suite runs this very file (tests/e2e/cdn/varnish.e2e.test.ts), only the backend's address rewritten.

import std;
import xkey;

backend origin {
    .host = "127.0.0.1";
    .port = "3000";
    .connect_timeout = 2s;
    .first_byte_timeout = 30s;
    # Without a probe Varnish would learn of an outage only by failing readers' fetches one by one.
    .probe = {
        .url = "/healthz";
        .interval = 1s;
        .timeout = 1s;
        .window = 3;
        .threshold = 2;
        .initial = 2;
    }
}

# Who may purge: the origin's own machine. Add the application servers' addresses when they run elsewhere.
acl purgers {
    "127.0.0.1";
    "::1";
}

sub vcl_recv {
    set req.backend_hint = origin;

    if (req.method == "PURGE") {
        if (client.ip !~ purgers) {
            return (synth(403, "Forbidden"));
        }
        # `xkey-purge: news news-42 home`: every object carrying one of these keys goes now (the next reader
        # fetches the new page). `xkey-softpurge` only expires them, keeping them for stale-if-error.
        if (req.http.xkey-purge) {
            set req.http.x-purged = xkey.purge(req.http.xkey-purge);
            return (synth(200, "Purged " + req.http.x-purged));
        }
        if (req.http.xkey-softpurge) {
            set req.http.x-purged = xkey.softpurge(req.http.xkey-softpurge);
            return (synth(200, "Soft-purged " + req.http.x-purged));
        }
        # No keys: the one address, as a plain PURGE does.
        return (purge);
    }

    if (req.method != "GET" && req.method != "HEAD") {
        # Forms, the API, beacons: never kept, never merged.
        return (pass);
    }

    # A live coverage's stream (text/event-stream, issue 44): one long answer per reader, written a change at a
    # time. Passed, never kept and never merged with another reader's (a hit-for-pass would queue no one, a miss
    # would make every reader wait on the first); vcl_backend_response streams it as it comes. The entries JSON
    # beside it (`/coverage/<slug>/entries?after=<cursor>`) is an ordinary cached answer, one copy per URL,
    # purged by its `entries` key.
    if (req.url ~ "^(/fr|/en)?/coverage/[^/?]+/stream(\?.*)?$") {
        set req.http.x-live-stream = "1";
        return (pass);
    }

    # One copy per encoding a reader can take (brotli, gzip, none), whatever the browser lists. Varnish itself
    # turns the header into `gzip` or nothing after this (http_gzip_support), so brotli is remembered aside.
    if (req.restarts == 0) {
        unset req.http.x-accept-br;
        unset req.http.x-origin-failed;
        unset req.http.x-fresh-only;
        unset req.http.x-live-stream;
        if (req.http.Accept-Encoding ~ "(^|[ ,])br([ ,;]|$)") {
            set req.http.x-accept-br = "1";
            set req.http.Accept-Encoding = "br, gzip";
        } elsif (req.http.Accept-Encoding ~ "(^|[ ,])gzip([ ,;]|$)") {
            set req.http.Accept-Encoding = "gzip";
        } else {
            unset req.http.Accept-Encoding;
        }
    }

    # The language cookie decides nothing on an address (every page's language is in its path, decision 0143);
    # any other cookie is a session (sahara.session_token and friends), a form's token or the search cookie:
    # the reader is someone, so the page is theirs and goes to the origin untouched, and is never kept.
    if (req.http.Cookie) {
        # Except at the bare entry `/`: there the cookie sends a reader who chose French or English to /fr or /en
        # (server/http/entry-redirect.server.ts), an answer for them alone.
        if (req.url ~ "^/(\?.*)?$" && req.http.Cookie ~ "(^|;\s*)i18nextLng=") {
            return (pass);
        }
        set req.http.Cookie = regsuball(req.http.Cookie, "(^|;\s*)i18nextLng=[^;]*", "");
        set req.http.Cookie = regsub(req.http.Cookie, "^;\s*", "");
        if (req.http.Cookie ~ "^\s*$") {
            unset req.http.Cookie;
        }
    }
    if (req.http.Authorization || req.http.Cookie) {
        return (pass);
    }

    # Past its stale-while-revalidate window with the origin up (vcl_hit), only a fresh copy will do; after a
    # failed fetch (vcl_synth), any stale copy will: that is stale-if-error.
    # (req.grace outlives a restart: each says what it wants.)
    if (req.http.x-origin-failed) {
        set req.grace = 3650d;
    } elsif (req.http.x-fresh-only) {
        set req.grace = 0s;
    }

    # Where a reader came from is the page's business, not the cache's (issue 45): the tags of the site's own links
    # (utm_source=whatsapp, newsletter, push…, utm_campaign) and the click ids others add (fbclid, gclid) leave the
    # address that is hashed and fetched, so a tagged link is served the one copy of its page. The page's script
    # still reads them from the address bar (location.search) for its beacon. The origin keys its own page cache
    # the same way (domain/link-tags.ts `withoutTrackingParams`). A passed request (above) keeps its address whole.
    if (req.url ~ "(?i)[?&](utm_|fbclid|gclid)") {
        set req.url = regsuball(req.url, "(?i)([?&])(utm_[^&=]*|fbclid|gclid)(=[^&]*)?(?=&|$)", "\1");
        set req.url = regsub(req.url, "\?&+", "?");
        set req.url = regsuball(req.url, "&&+", "&");
        set req.url = regsub(req.url, "[?&]+$", "");
    }
    return (hash);
}

sub vcl_hash {
    hash_data(req.url);
    if (req.http.host) {
        hash_data(req.http.host);
    } else {
        hash_data(server.ip);
    }
    if (req.http.x-accept-br) {
        hash_data("br");
    }
    return (lookup);
}

sub vcl_hit {
    set req.http.x-cache = "HIT";
    if (obj.ttl >= 0s) {
        return (deliver);
    }
    # Expired. Within its stale-while-revalidate window the stale page goes out while Varnish fetches the new one
    # in the background; past it, only an origin that is down (the probe, or a fetch that just failed) justifies
    # a stale page (stale-if-error), else the reader waits for a fresh one.
    if (req.http.x-origin-failed || !std.healthy(req.backend_hint)) {
        return (deliver);
    }
    if (obj.ttl + std.duration(obj.http.x-swr, 0s) > 0s) {
        return (deliver);
    }
    set req.http.x-fresh-only = "1";
    return (restart);
}

sub vcl_miss {
    set req.http.x-cache = "MISS";
    if (req.is_hitmiss) {
        set req.http.x-cache = "PASS";
    }
}

sub vcl_pass {
    set req.http.x-cache = "PASS";
}

sub vcl_backend_fetch {
    if (bereq.http.x-accept-br) {
        set bereq.http.Accept-Encoding = "br";
    }
    unset bereq.http.x-accept-br;
    unset bereq.http.x-fresh-only;
    unset bereq.http.x-cache;
    unset bereq.http.x-purged;
    # A stream is quiet between changes but for the origin's heartbeat (LIVE_HEARTBEAT_MS, 20 s): wait longer than
    # that before calling the origin gone.
    if (bereq.http.x-live-stream) {
        set bereq.first_byte_timeout = 60s;
        set bereq.between_bytes_timeout = 90s;
        unset bereq.http.x-live-stream;
    }
}

sub vcl_backend_response {
    # Server-Sent Events go to the reader byte for byte as the origin writes them: streamed, not compressed here
    # (gzip would hold bytes back until a block fills), never stored.
    if (beresp.http.Content-Type ~ "^text/event-stream") {
        set beresp.do_stream = true;
        set beresp.do_gzip = false;
        set beresp.uncacheable = true;
        set beresp.ttl = 0s;
        set beresp.grace = 0s;
        return (deliver);
    }
    # A failed fetch keeps what is stored: a background fetch just gives up (the stale copy stays), a reader's is
    # retried once accepting any stale copy (vcl_synth). A passed request (a signed-in reader) has none to take.
    if (beresp.status >= 500 && !bereq.uncacheable && (bereq.is_bgfetch || !bereq.http.x-origin-failed) && (bereq.method == "GET" || bereq.method == "HEAD")) {
        return (abandon);
    }
    # The retry found no stale copy: the origin's error page goes to this reader, and no marker is left that would
    # hide a copy stored later.
    if (beresp.status >= 500) {
        set beresp.ttl = 0s;
        set beresp.grace = 0s;
        set beresp.uncacheable = true;
        return (deliver);
    }

    # Varnish reads s-maxage (or max-age) into beresp.ttl itself; the two stale windows it is told here. The grace
    # is the longer of them, so the object outlives its stale-while-revalidate window for stale-if-error.
    unset beresp.http.x-swr;
    if (beresp.http.Cache-Control ~ "stale-while-revalidate=[0-9]+") {
        set beresp.http.x-swr = regsub(beresp.http.Cache-Control, "^.*stale-while-revalidate=([0-9]+).*$", "\1s");
    }
    set beresp.grace = 0s;
    if (beresp.http.Cache-Control ~ "stale-if-error=[0-9]+") {
        set beresp.grace = std.duration(regsub(beresp.http.Cache-Control, "^.*stale-if-error=([0-9]+).*$", "\1s"), 0s);
    }
    if (std.duration(beresp.http.x-swr, 0s) > beresp.grace) {
        set beresp.grace = std.duration(beresp.http.x-swr, 0s);
    }
    # Keep the copy a little longer for conditional fetches (its ETag) once it may no longer be shown.
    set beresp.keep = 1h;

    # Anything the origin marks personal, or that sets a cookie, is never stored (a hit-for-miss marker instead,
    # so that the next reader is not queued behind this one).
    if (beresp.http.Set-Cookie || beresp.http.Cache-Control ~ "(private|no-store|no-cache)" || beresp.http.Vary == "*" || beresp.ttl <= 0s) {
        set beresp.uncacheable = true;
        set beresp.ttl = 30s;
        set beresp.grace = 0s;
        return (deliver);
    }

    # The keys the server purges by: xkey reads its own header.
    if (beresp.http.Surrogate-Key) {
        set beresp.http.xkey = beresp.http.Surrogate-Key;
    }
    return (deliver);
}

sub vcl_backend_error {
    # The origin did not answer: the reader's request is retried once accepting a stale copy (vcl_synth); the
    # retry itself, with nothing stored, gets this error.
    if (!bereq.http.x-origin-failed && !bereq.is_bgfetch && !bereq.uncacheable && (bereq.method == "GET" || bereq.method == "HEAD")) {
        return (abandon);
    }
}

sub vcl_synth {
    if (resp.status == 503 && !req.http.x-origin-failed && (req.method == "GET" || req.method == "HEAD")) {
        set req.http.x-origin-failed = "1";
        unset req.http.x-fresh-only;
        return (restart);
    }
    if (req.method == "PURGE") {
        set resp.http.Content-Type = "text/plain; charset=utf-8";
        synthetic(resp.reason + {"
"});
        return (deliver);
    }
}

sub vcl_deliver {
    # For `curl -I` checks: HIT (from the cache, fresh or stale), MISS (fetched for this request, and kept) or
    # PASS (fetched, not kept).
    set resp.http.X-Cache = req.http.x-cache;
    if (obj.uncacheable) {
        set resp.http.X-Cache = "PASS";
    }
    # The keys are the newsroom's business, not the reader's.
    unset resp.http.xkey;
    unset resp.http.x-swr;
    unset resp.http.Surrogate-Key;
    unset resp.http.Cache-Tag;
    unset resp.http.CDN-Tag;
    unset resp.http.Via;
    unset resp.http.X-Varnish;
}
