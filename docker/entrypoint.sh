#!/bin/sh
# The image's entry point. With a volume mounted at /secrets (docker/compose.yaml mounts one there),
# the three secrets that every instance must share — ADMIN_TOKEN, WEBHOOK_SECRET_KEY and
# SESSION_SECRET — come from the environment when set there, and otherwise from /secrets, where the
# first container to start generates each once (32 random bytes; the file names of the embedded
# default's DATA_DIR). Without that mount nothing changes: the settings come from the environment
# only (a secret generated into a container's own layer would change when the container is replaced).
set -eu

if grep -qs ' /secrets ' /proc/mounts; then
  for pair in ADMIN_TOKEN:admin-token WEBHOOK_SECRET_KEY:webhook-secret-key SESSION_SECRET:session-secret; do
    name=${pair%%:*}
    file=/secrets/${pair#*:}
    eval "value=\${$name:-}"
    [ -n "$value" ] && continue
    if [ ! -s "$file" ]; then
      # Written aside, then linked into place: a link never replaces a file, so containers that
      # start together all end up with the value that was linked first. (The aside name comes from
      # mktemp, not $$: every container's entry point is PID 1.)
      aside=$(mktemp "$file.XXXXXX")
      head -c 32 /dev/urandom | base64 | tr -d '\n=' | tr '+/' '-_' >"$aside"
      ln "$aside" "$file" 2>/dev/null || true
      rm -f "$aside"
    fi
    export "$name=$(cat "$file")"
  done
fi

exec "$@"
