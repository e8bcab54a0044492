#!/usr/bin/env bash
# Screenshots of every board fixture in headless Chromium, at a phone's width (390 px) and
# a laptop's (800 px), into reports/boards/ (gitignored), for looking at the boards.
# Usage (from web/): scripts/shots.sh [fixture ...] [-- lang]
set -euo pipefail
cd "$(dirname "$0")/.."
out=../reports/boards
mkdir -p "$out"
npx vite build --config scripts/preview.config.ts --logLevel error
port=$((20000 + RANDOM % 20000))
python3 -m http.server "$port" --bind 127.0.0.1 --directory /tmp/necropolis-boards-preview >/dev/null 2>&1 &
server=$!
trap 'kill "$server"' EXIT
sleep 0.5
lang=${LANG_SHOT:-en}
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  names=($(ls src/boards/fixtures | sed 's/\.json$//'))
fi
for name in "${names[@]}"; do
  for w in 390 800; do
    h=${HEIGHT_SHOT:-1400}
    /usr/bin/chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
      --disable-component-update --no-first-run --hide-scrollbars --force-device-scale-factor=1 \
      --screenshot="$out/$name${PICK_SHOT:+-picked}-$lang-$w.png" --window-size="$w,$h" \
      "http://127.0.0.1:$port/scripts/preview.html?f=$name&lang=$lang${PICK_SHOT:+&pick=$PICK_SHOT}" >/dev/null 2>&1
  done
  echo "$out/$name${PICK_SHOT:+-picked}-$lang-{390,800}.png"
done
