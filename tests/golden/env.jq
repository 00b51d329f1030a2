# What tko env found of this machine itself (normalise.sh runs it after
# the cases' root became @ROOT@). tko looks for tools in fixed install
# folders too (/usr/local/cuda/bin, /opt/rocm/bin: env/probe.c), so what
# it finds there differs between machines whatever PATH says. Kept: the
# fake tools a case put under its own directory, and what they printed.
def fake: (.path // "") | startswith("@ROOT@/");
([.tools[]? | select(fake) | .name]) as $fakes
| del(.host, .cuda, .hip, .dtk, .rocm)
| if .tools then .tools |= map(if fake then . else del(.path, .version, .version_line) end) else . end
| if .gpu_tools then .gpu_tools |= with_entries(select(.key as $k | $fakes | index($k))) else . end
