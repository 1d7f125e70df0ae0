#!/usr/bin/env bash
# The five-minute tour: an account, an app with a landing page, a deploy, a published page, a visitor
# who signs up through the page's form, the visitor and the sign-up in analytics, a signed webhook
# arriving at a receiver, unpublishing, and the portal's invite link. README.md shows it, and
# test/tour.e2e-spec.ts runs it against a fresh server on every `npm test`, so it keeps working.
#
# Start the server in one terminal. WEBHOOK_ALLOW_PRIVATE=true lets it deliver webhooks to the
# receiver on this machine (it refuses http:// and private addresses otherwise):
#
#   WEBHOOK_ALLOW_PRIVATE=true npm start
#
# and run the tour in another: bash docs/tour.sh
#
# Settings: PLATFORM_URL (default http://localhost:3000), ADMIN_TOKEN (default: the one the server
# generated in data/admin-token), RECEIVER_PORT (the webhook receiver's, default 4000).
# Needs bash, curl and node; it writes no file.
set -euo pipefail
cd "$(dirname "$0")/.."

BASE=${PLATFORM_URL:-http://localhost:3000}
ADMIN=${ADMIN_TOKEN:-$(cat data/admin-token)}
RECEIVER_PORT=${RECEIVER_PORT:-4000}
RUN=$(date +%s) # new e-mail addresses on every run
# A browser's User-Agent. curl's own is a bot's, and analytics counts no bots.
BROWSER='Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'

# The value at a path of the JSON on stdin (the project's own tool: no jq needed).
json() { node scripts/json.mjs "$@"; }

# The API with the account's key: api METHOD PATH [JSON body, or @- for stdin]. A failure prints the answer and stops the tour.
api() {
  local args=(-sS --fail-with-body -X "$1" "$BASE$2" -H "authorization: Bearer $KEY")
  [ $# -gt 2 ] && args+=(-H 'content-type: application/json' --data-binary "$3")
  local answer
  if ! answer=$(curl "${args[@]}"); then
    echo "$1 $2 failed: $answer" >&2
    return 1
  fi
  echo "$answer"
}

# Repeats a command until it prints the expected text (30 s at most): some work happens after the answer.
wait_for() {
  local expected=$1
  shift
  for _ in $(seq 150); do
    [ "$("$@" 2>/dev/null)" = "$expected" ] && return 0
    sleep 0.2
  done
  echo "gave up waiting for '$expected' from: $*" >&2
  return 1
}

step() { printf '\n== %s\n' "$*"; }

step "1. An account. The operator's admin token creates it; the answer holds its first API key (shown once) and a portal invite"
ACCOUNT=$(curl -sS --fail-with-body "$BASE/v1/admin/accounts" -H "authorization: Bearer $ADMIN" \
  -H 'content-type: application/json' -d "{\"email\":\"dev-$RUN@example.com\"}")
KEY=$(json apiKey <<<"$ACCOUNT")
INVITE=$(json portalInviteUrl <<<"$ACCOUNT")
echo "account $(json accountId <<<"$ACCOUNT"), API key $KEY"
echo "portal invite: $INVITE"

step "2. An app, and its landing page: the default one (from the name and description), with two texts changed"
APP=$(api POST /v1/apps '{"name":"Recipe Box","description":"Share family recipes."}' | json appId)
echo "app $APP"
api GET "/v1/apps/$APP/landing-page" |
  json page --set hero.headline='Family recipes, finally in one place' --set cta.headline='Start your family cookbook' |
  api PUT "/v1/apps/$APP/landing-page" @- | json source page.hero.headline

step "3. Deploy (an immutable snapshot of the app and its page), then publish it at the app's public address"
DEPLOY=$(api POST /v1/apps/deploy "{\"appId\":\"$APP\",\"env\":\"production\"}")
echo "deployment $(json deploymentId <<<"$DEPLOY") at $(json url <<<"$DEPLOY")"
PAGE_URL=$(api POST "/v1/apps/$APP/publish" | json publicUrl)
echo "published at $PAGE_URL"

step "4. A webhook endpoint, and a receiver on this machine that verifies each delivery's signature"
if ! HOOK=$(api POST /v1/webhook-endpoints "{\"url\":\"http://127.0.0.1:$RECEIVER_PORT/webhooks\"}"); then
  echo 'The server refuses local receivers unless it runs with WEBHOOK_ALLOW_PRIVATE=true: restart it so.' >&2
  exit 1
fi
HOOK_ID=$(json id <<<"$HOOK")
echo "endpoint $HOOK_ID, events $(json events <<<"$HOOK")"
node scripts/webhook-receiver.mjs --port "$RECEIVER_PORT" --secret "$(json secret <<<"$HOOK")" &
RECEIVER=$!
trap 'kill $RECEIVER 2>/dev/null' EXIT
wait_for 405 curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$RECEIVER_PORT/"
last_delivery() { api GET "/v1/webhook-endpoints/$HOOK_ID/deliveries?limit=1" | json data.0.event data.0.status; }

step "5. A visitor opens the page in a browser and signs up through its form (no JavaScript: a form post)"
PAGE=$(curl -sS --fail-with-body -A "$BROWSER" "$PAGE_URL")
sed -nE 's/.*<h1[^>]*>([^<]*)<.*/page: \1/p' <<<"$PAGE"
TOKEN=$(sed -nE 's/.*name="token" value="([^"]+)".*/\1/p' <<<"$PAGE")
sleep 2 # the form takes no post sooner than 2 s after the page was served (that is a bot's speed)
curl -sS -o /dev/null -w 'sign-up: %{http_code} to %{redirect_url}\n' -A "$BROWSER" "${PAGE_URL}signup" \
  --data-urlencode "email=reader-$RUN@example.com" -d website= --data-urlencode "token=$TOKEN"
# The user is created just after the 303 has gone out (so the answer's timing tells nothing about the address).
first_user() { api GET "/v1/users?appId=$APP" | json data.0.email; }
wait_for "reader-$RUN@example.com" first_user
echo "user $(api GET "/v1/users?appId=$APP" | json data.0.id data.0.email)"
wait_for 'user.created succeeded' last_delivery

step "6. The visitor and the sign-up in analytics (pageviews are written in batches, every second)"
figure() { api GET "/v1/apps/$APP/analytics/aggregate?period=day&metrics=$1" | json "results.$1.value"; }
wait_for 1 figure visitors
wait_for 1 figure signups
api GET "/v1/apps/$APP/analytics/aggregate?period=day&metrics=visitors,pageviews,signups,conversionRate" |
  json results.visitors.value results.pageviews.value results.signups.value results.conversionRate.value |
  (read -r visitors pageviews signups rate && echo "today: visitors $visitors, pageviews $pageviews, signups $signups, conversion rate $rate %")

step "7. Unpublish: the public address answers 410 Gone (the deployment's own url keeps working)"
echo "app $(api POST "/v1/apps/$APP/unpublish" | json publishState)"
curl -sS -o /dev/null -w "public address: %{http_code}\n" -A "$BROWSER" "$PAGE_URL"
wait_for 'app.unpublished succeeded' last_delivery

step "8. The portal: open the invite link in a browser, set a password, and you are signed in as this account"
curl -sS --fail-with-body "$INVITE" | sed -nE 's/.*<h1>([^<]*)<.*/invite page: \1/p'
echo "$INVITE"
