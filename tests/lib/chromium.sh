# chromium.sh - sourced by the HTML tests: renders a page in headless Chromium
# (as root, closed network: the flags keep it from reaching out).
#   render FILE   writes $tmp/dom.html (the DOM after scripts ran),
#                 $tmp/chrome.log and $tmp/console.log (the page's console)
# Needs $browser and $tmp set by the caller.
render() {
    prof=$(mktemp -d "$tmp/prof.XXXXXX")
    timeout 90 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$prof" --enable-logging=stderr --v=0 --virtual-time-budget=3000 \
        --dump-dom "file://$1" >"$tmp/dom.html" 2>"$tmp/chrome.log"
    # console messages of the page: "CONSOLE(line)] message"; errors say Uncaught/Error
    grep 'CONSOLE' "$tmp/chrome.log" >"$tmp/console.log" || true
}
