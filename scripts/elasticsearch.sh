#!/usr/bin/env bash
# A local Elasticsearch for development, tests and benchmarks, without Docker:
#
#   scripts/elasticsearch.sh start  [--nodes 1|2]   fetch (once), configure, start, wait for health
#   scripts/elasticsearch.sh stop   [--nodes 1|2]   stop the nodes this script started, and only them
#   scripts/elasticsearch.sh status [--nodes 1|2]   each node's pid and the cluster's health
#   scripts/elasticsearch.sh kill-node N            SIGKILL node N (for failure tests)
#
# The distribution is the one Elasticsearch publishes on Maven Central for plugin tests
# (org.elasticsearch.distribution.integ-test-zip): the server, HTTP and x-pack security, no JDK
# and no analysis-common module. Maven fetches it once into .cache/elasticsearch (git-ignored);
# it is unpacked into ES_WORK_DIR, where each node has its own config, data, logs and pid file.
# Nodes bind to 127.0.0.1 only, with security off and a small heap. Elasticsearch refuses to run
# as root, so as root the nodes run as the unprivileged user ES_USER, created when missing.
#
# Settings (environment): ES_VERSION (8.19.20), ES_HTTP_PORT (9200; node N listens on port+N-1),
# ES_HEAP (512m), ES_JAVA_HOME (the JDK of `java` on the PATH), ES_WORK_DIR
# (/var/tmp/annonces-elasticsearch: readable by ES_USER wherever the repository lies), ES_USER
# (elasticsearch).
set -euo pipefail

ES_VERSION="${ES_VERSION:-8.19.20}"
ES_HTTP_PORT="${ES_HTTP_PORT:-9200}"
ES_HEAP="${ES_HEAP:-512m}"
ES_USER="${ES_USER:-elasticsearch}"
ES_WORK_DIR="${ES_WORK_DIR:-/var/tmp/annonces-elasticsearch}"
REPO_DIR="$(cd "$(dirname "$0")/.." && pwd)"
CACHE_DIR="$REPO_DIR/.cache/elasticsearch"
ZIP="$CACHE_DIR/elasticsearch-$ES_VERSION.zip"
HOME_DIR="$ES_WORK_DIR/elasticsearch-$ES_VERSION"
TRANSPORT_BASE=$((ES_HTTP_PORT + 100))

die() { echo "elasticsearch.sh: $*" >&2; exit 1; }
log() { echo "elasticsearch.sh: $*" >&2; }

usage() {
  sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

java_home() {
  if [[ -n "${ES_JAVA_HOME:-}" ]]; then echo "$ES_JAVA_HOME"; return; fi
  local java; java="$(command -v java)" || die "no java on the PATH: install a JDK 17+ or set ES_JAVA_HOME"
  dirname "$(dirname "$(readlink -f "$java")")"
}

# The user the nodes run as: ourselves unless we are root.
run_user() { if [[ "$(id -u)" == 0 ]]; then echo "$ES_USER"; else id -un; fi; }

as_node_user() {
  if [[ "$(id -u)" == 0 ]]; then runuser -u "$ES_USER" -- "$@"; else "$@"; fi
}

fetch() {
  if [[ -f "$ZIP" ]]; then return; fi
  command -v mvn >/dev/null || die "Maven (mvn) is needed once to fetch Elasticsearch $ES_VERSION"
  mkdir -p "$CACHE_DIR"
  log "fetching org.elasticsearch.distribution.integ-test-zip:elasticsearch:$ES_VERSION from Maven Central"
  mvn -q -B -Dstyle.color=never dependency:copy \
    -Dartifact="org.elasticsearch.distribution.integ-test-zip:elasticsearch:$ES_VERSION:zip" \
    -DoutputDirectory="$CACHE_DIR" >&2 || die "Maven could not fetch Elasticsearch $ES_VERSION"
  [[ -f "$ZIP" ]] || die "Maven did not leave $ZIP"
}

install_home() {
  if [[ -x "$HOME_DIR/bin/elasticsearch" ]]; then return; fi
  mkdir -p "$ES_WORK_DIR"
  local tmp; tmp="$(mktemp -d "$ES_WORK_DIR/unpack.XXXXXX")"
  if command -v unzip >/dev/null; then unzip -q "$ZIP" -d "$tmp"
  else python3 -m zipfile -e "$ZIP" "$tmp"; chmod a+x "$tmp/elasticsearch-$ES_VERSION/bin/"*; fi
  mv "$tmp/elasticsearch-$ES_VERSION" "$HOME_DIR"
  rmdir "$tmp"
  chmod -R a+rX "$ES_WORK_DIR"
}

ensure_user() {
  [[ "$(id -u)" == 0 ]] || return 0
  id -u "$ES_USER" >/dev/null 2>&1 && return 0
  log "creating the unprivileged user $ES_USER"
  useradd --system --no-create-home --shell /usr/sbin/nologin "$ES_USER"
}

node_dir() { echo "$ES_WORK_DIR/nodes/$(( ES_HTTP_PORT + $1 - 1 ))"; }
pid_of() { local f; f="$(node_dir "$1")/es.pid"; [[ -s "$f" ]] && cat "$f" || true; }

# A pid from our pid file is ours only while that process is a java running this node's config:
# a pid reused by another process after a crash is never signalled.
is_our_node() {
  local pid="$1" dir="$2"
  [[ -n "$pid" && -r "/proc/$pid/environ" ]] || return 1
  { tr '\0' '\n' < "/proc/$pid/environ"; } 2>/dev/null | grep -qx "ES_PATH_CONF=$dir/config"
}

configure_node() {
  local n="$1" nodes="$2" dir; dir="$(node_dir "$n")"
  local http=$(( ES_HTTP_PORT + n - 1 )) transport=$(( TRANSPORT_BASE + n - 1 ))
  mkdir -p "$dir/data" "$dir/logs" "$dir/tmp"
  rm -rf "$dir/config"
  cp -r "$HOME_DIR/config" "$dir/config"
  local seeds="" i
  for i in $(seq 1 "$nodes"); do seeds+="\"127.0.0.1:$(( TRANSPORT_BASE + i - 1 ))\","; done
  {
    echo "cluster.name: annonces-local-$ES_HTTP_PORT"
    echo "node.name: node-$n"
    echo "network.host: 127.0.0.1"
    echo "http.port: $http"
    echo "transport.port: $transport"
    echo "path.data: $dir/data"
    echo "path.logs: $dir/logs"
    echo "xpack.security.enabled: false"
    # A developer's nearly full disk must not stop shard allocation on a local node.
    echo "cluster.routing.allocation.disk.threshold_enabled: false"
    if [[ "$nodes" == 1 ]]; then
      echo "discovery.type: single-node"
    else
      # Node 1 is the only master-eligible node: the cluster survives losing any other node.
      echo "discovery.seed_hosts: [${seeds%,}]"
      if [[ "$n" == 1 ]]; then
        echo "node.roles: [master, data, ingest]"
        echo "cluster.initial_master_nodes: [node-1]"
      else
        echo "node.roles: [data, ingest]"
      fi
    fi
  } > "$dir/config/elasticsearch.yml"
  chown -R "$(run_user)" "$dir"
}

start_node() {
  local n="$1" nodes="$2" dir; dir="$(node_dir "$n")"
  if is_our_node "$(pid_of "$n")" "$dir"; then log "node-$n already running (pid $(pid_of "$n"))"; return; fi
  if curl -fsS "http://127.0.0.1:$(( ES_HTTP_PORT + n - 1 ))/" >/dev/null 2>&1; then
    die "port $(( ES_HTTP_PORT + n - 1 )) already answers and it is not a node this script started (set ES_HTTP_PORT)"
  fi
  configure_node "$n" "$nodes"
  log "starting node-$n on 127.0.0.1:$(( ES_HTTP_PORT + n - 1 )) (heap $ES_HEAP, user $(run_user))"
  as_node_user env ES_PATH_CONF="$dir/config" ES_TMPDIR="$dir/tmp" ES_JAVA_HOME="$(java_home)" \
    ES_JAVA_OPTS="-Xms$ES_HEAP -Xmx$ES_HEAP" \
    "$HOME_DIR/bin/elasticsearch" -d -p "$dir/es.pid" > "$dir/logs/stdout.log" 2>&1 \
    || { tail -20 "$dir/logs/stdout.log" >&2; die "node-$n did not start"; }
}

wait_health() {
  local nodes="$1" url="http://127.0.0.1:$ES_HTTP_PORT" deadline=$(( SECONDS + ${ES_START_TIMEOUT:-180} ))
  until curl -fsS "$url/_cluster/health?wait_for_nodes=$nodes&wait_for_status=yellow&timeout=5s" >/dev/null 2>&1; do
    if (( SECONDS > deadline )); then
      tail -30 "$(node_dir 1)/logs/annonces-local-$ES_HTTP_PORT.log" >&2 2>/dev/null || true
      die "cluster not healthy after ${ES_START_TIMEOUT:-180} s"
    fi
    sleep 1
  done
  log "ready: $url ($nodes node(s), Elasticsearch $ES_VERSION)"
}

stop_node() {
  local n="$1" dir; dir="$(node_dir "$n")"
  local pid; pid="$(pid_of "$n")"
  if ! is_our_node "$pid" "$dir"; then rm -f "$dir/es.pid"; return; fi
  kill "$pid"
  local i
  for i in $(seq 1 60); do is_our_node "$pid" "$dir" || break; sleep 0.5; done
  if is_our_node "$pid" "$dir"; then kill -9 "$pid"; fi
  rm -f "$dir/es.pid"
  log "stopped node-$n (pid $pid)"
}

# Every node directory this script made under ES_WORK_DIR for this port range.
known_nodes() {
  local n
  for n in 1 2 3; do [[ -d "$(node_dir "$n")" ]] && echo "$n"; done
  return 0
}

cmd="${1:-}"; shift || true
nodes=1
while [[ $# -gt 0 ]]; do
  case "$1" in
    --nodes) nodes="${2:-}"; shift 2 || usage ;;
    [0-9]*) node_arg="$1"; shift ;;
    *) usage ;;
  esac
done
[[ "$nodes" =~ ^[12]$ ]] || die "--nodes takes 1 or 2"

case "$cmd" in
  start)
    fetch; install_home; ensure_user
    # Data is kept from one start to the next, but a single node's cluster state cannot become a
    # two-node cluster's (or back): changing the size stops our nodes and starts empty.
    size_file="$ES_WORK_DIR/nodes/size-$ES_HTTP_PORT"
    if [[ "$(cat "$size_file" 2>/dev/null)" != "$nodes" ]]; then
      for n in $(known_nodes); do stop_node "$n"; rm -rf "$(node_dir "$n")"; done
      mkdir -p "$ES_WORK_DIR/nodes"; echo "$nodes" > "$size_file"
    fi
    for n in $(seq 1 "$nodes"); do start_node "$n" "$nodes"; done
    wait_health "$nodes"
    echo "ES_URL=http://127.0.0.1:$ES_HTTP_PORT"
    ;;
  stop)
    for n in $(known_nodes); do stop_node "$n"; done
    ;;
  status)
    for n in $(known_nodes); do
      pid="$(pid_of "$n")"
      if is_our_node "$pid" "$(node_dir "$n")"; then echo "node-$n: running, pid $pid, port $(( ES_HTTP_PORT + n - 1 ))"
      else echo "node-$n: stopped"; fi
    done
    curl -fsS "http://127.0.0.1:$ES_HTTP_PORT/_cluster/health?pretty" 2>/dev/null || { echo "cluster: not answering on $ES_HTTP_PORT"; exit 3; }
    ;;
  kill-node)
    [[ -n "${node_arg:-}" ]] || usage
    pid="$(pid_of "$node_arg")"
    is_our_node "$pid" "$(node_dir "$node_arg")" || die "node-$node_arg is not running"
    kill -9 "$pid"
    log "killed node-$node_arg (pid $pid)"
    ;;
  *) usage ;;
esac
