#!/usr/bin/env bash
# A standard install works away from the checkout: in a clean venv,
# `pip install .` of a fresh clone of the committed tree, then `gen build` run
# from another folder on spec files copied there, writing to a build folder
# outside both trees. The files it writes must be the committed build/ byte for
# byte, and the clone's build/ must hold only the generated targets afterwards
# (setuptools stages in .setuptools-build/). About half a minute.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

git clone --quiet --no-hardlinks "$root" "$work/clone"
python3 -m venv "$work/venv"
(cd "$work" && "$work/venv/bin/python" -m pip install -q "$work/clone")

leftovers="$(git -C "$work/clone" status --porcelain --ignored -- build)"
if [ -n "$leftovers" ]; then
  echo "install check: pip install left files in build/:" >&2
  echo "$leftovers" >&2
  exit 1
fi

mkdir -p "$work/elsewhere/specs"
cp "$work/clone/specs/"*.yaml "$work/elsewhere/specs/"
cd "$work/elsewhere"
where="$("$work/venv/bin/python" -c 'import generator; print(generator.__file__)')"
case "$where" in
  "$work/venv/"*) ;;
  *) echo "install check: gen imports generator from $where, not from the venv" >&2; exit 1;;
esac
specs=()
for spec in specs/*.yaml; do specs+=(--spec "$spec"); done
"$work/venv/bin/gen" build "${specs[@]}" --build-dir "$work/out"
for built in "$work/clone/build/"*/submission.py; do
  target="$(basename "$(dirname "$built")")"
  cmp "$built" "$work/out/$target/submission.py"
done
echo "install check: pip install . of a fresh clone, gen build elsewhere: ok"
