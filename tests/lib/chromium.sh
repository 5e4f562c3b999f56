# chromium.sh - sourced by the HTML tests: renders a page in headless Chromium
# (as root, closed network: the flags keep it from reaching out).
#   skip_without_browser N  without chromium, says so, counts the test's N
#                 checks as skips and ends the test
#   render FILE   writes $tmp/dom.html (the DOM after scripts ran),
#                 $tmp/chrome.log and $tmp/console.log (the page's console)
#   detects_errors, quiet_console, self_contained PAGE: the checks every
#                 page's test makes, counted with the caller's ok and ko
# Needs $suite, and $tmp for render, set by the caller.
browser=$(command -v chromium || command -v chromium-browser || true)

skip_without_browser() {
    [ -n "$browser" ] && return 0
    echo "SKIP: chromium not installed (apt-get install -y chromium)" >&2
    echo "$suite: 0 passed, 0 failed, $1 skipped"
    exit 0
}

render() {
    prof=$(mktemp -d "$tmp/prof.XXXXXX")
    timeout 90 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$prof" --enable-logging=stderr --v=0 --virtual-time-budget=3000 \
        --dump-dom "file://$1" >"$tmp/dom.html" 2>"$tmp/chrome.log"
    # console messages of the page: "CONSOLE(line)] message"; errors say Uncaught/Error
    grep 'CONSOLE' "$tmp/chrome.log" >"$tmp/console.log" || true
}

# A page with a script error must be caught, or a quiet console proves nothing.
detects_errors() {
    printf '<!DOCTYPE html><html><body><script>undefinedFunction();</script></body></html>\n' \
        >"$tmp/broken.html"
    render "$tmp/broken.html"
    if grep -qi 'uncaught\|error' "$tmp/console.log"; then ok; else
        ko "console errors are not detected (chromium log format changed?)"; fi
}

# The page rendered last wrote nothing to the console.
quiet_console() {
    if [ -s "$tmp/console.log" ]; then ko "console messages: $(head -3 "$tmp/console.log")"; else ok; fi
}

# Nothing for the page to fetch.
self_contained() {
    if grep -Eq '<(script|img|link|iframe)[^>]* (src|href)=' "$1"; then
        ko "the page references external resources"; else ok; fi
}
