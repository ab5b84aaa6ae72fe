#!/usr/bin/env bash
# A local Elasticsearch for development, tests and benchmarks, without Docker:
#
#   scripts/elasticsearch.sh start  [--nodes 1|2|3] [--security]   fetch (once), configure, start, wait for health
#   scripts/elasticsearch.sh stop                   stop the nodes this script started, and only them
#   scripts/elasticsearch.sh status                 each node's pid and the cluster's health
#   scripts/elasticsearch.sh kill-node N|master     SIGKILL node N, or the elected master (failure tests)
#
# The distribution is the one Elasticsearch publishes on Maven Central for plugin tests
# (org.elasticsearch.distribution.integ-test-zip): the server, HTTP and x-pack security, no JDK
# and no analysis-common module. Maven fetches it once into .cache/elasticsearch (git-ignored);
# it is unpacked into ES_WORK_DIR, where each node has its own config, data, logs and pid file.
# Nodes bind to 127.0.0.1 only, with a small heap. Elasticsearch refuses to run as root, so as root
# the nodes run as the unprivileged user ES_USER, created when missing.
#
# Topology: one node; two (node 1 the only master); three (all master-eligible, any one may be lost).
# Security is off unless --security: then x-pack security is on, with TLS on HTTP and transport
# (a CA and a node certificate made once by the distribution's elasticsearch-certutil), the two
# roles of scripts/elasticsearch-roles.sh in each node's roles.yml, and three users of the file
# realm (this script's superuser, annonces-api, annonces-indexer). The start prints, one per line,
# ES_URL (https), ES_CA_FILE, ES_API_KEY_API and ES_API_KEY_INDEXER (two API keys restricted to the
# roles), ES_USERNAME_API, ES_PASSWORD_API, ES_USERNAME_INDEXER and ES_PASSWORD_INDEXER. API keys
# live in the .security index, whose mapping needs three analysis components of the analysis-common
# module this distribution lacks: scripts/elasticsearch-plugin provides them.
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
  sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//' >&2
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

# The integration-test distribution lacks the analysis-common module, whose tokenizer and filters
# the .security index's mapping names: without them a node with security on holds no native user and
# no API key. The plugin of scripts/elasticsearch-plugin provides exactly those three (built with the
# JDK's javac against the distribution's own jars, once per source change); a full distribution,
# which has the module, never gets it.
PLUGIN_SRC="$REPO_DIR/scripts/elasticsearch-plugin/src/annonces/SecurityIndexAnalysisPlugin.java"
install_security_analysis() {
  [[ -d "$HOME_DIR/modules/analysis-common" ]] && return 0
  local dir="$HOME_DIR/plugins/annonces-security-analysis" sum
  sum="$(sha256sum "$PLUGIN_SRC" | cut -c1-16)"
  [[ "$(cat "$dir/source.sha" 2>/dev/null || true)" == "$sum" ]] && return 0
  local jdk; jdk="$(java_home)"
  [[ -x "$jdk/bin/javac" && -x "$jdk/bin/jar" ]] || die "the JDK of $jdk has no javac/jar: set ES_JAVA_HOME to a full JDK 17+"
  log "building the security index's analysis plugin for this distribution"
  local tmp; tmp="$(mktemp -d)"
  "$jdk/bin/javac" -nowarn --release 17 -d "$tmp/classes" -cp "$HOME_DIR/lib/*" "$PLUGIN_SRC" >&2
  rm -rf "$dir"; mkdir -p "$dir"
  "$jdk/bin/jar" --create --file "$dir/annonces-security-analysis.jar" -C "$tmp/classes" .
  cat > "$dir/plugin-descriptor.properties" <<PROPERTIES
description=The uax_url_email tokenizer and the pattern_capture and unique filters of the .security index
version=1.0
name=annonces-security-analysis
classname=annonces.SecurityIndexAnalysisPlugin
java.version=17
elasticsearch.version=$ES_VERSION
PROPERTIES
  echo "$sum" > "$dir/source.sha"
  rm -rf "$tmp"
  chmod -R a+rX "$dir"
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
  local seeds="" names="" i
  for i in $(seq 1 "$nodes"); do seeds+="\"127.0.0.1:$(( TRANSPORT_BASE + i - 1 ))\","; names+="node-$i,"; done
  {
    echo "cluster.name: annonces-local-$ES_HTTP_PORT"
    echo "node.name: node-$n"
    echo "network.host: 127.0.0.1"
    echo "http.port: $http"
    echo "transport.port: $transport"
    echo "path.data: $dir/data"
    echo "path.logs: $dir/logs"
    if [[ "$security" == 1 ]]; then security_settings; else echo "xpack.security.enabled: false"; fi
    # A developer's nearly full disk must not stop shard allocation on a local node.
    echo "cluster.routing.allocation.disk.threshold_enabled: false"
    if [[ "$nodes" == 1 ]]; then
      echo "discovery.type: single-node"
    elif [[ "$nodes" == 2 ]]; then
      # Node 1 is the only master-eligible node: the cluster survives losing any other node.
      echo "discovery.seed_hosts: [${seeds%,}]"
      if [[ "$n" == 1 ]]; then
        echo "node.roles: [master, data, ingest]"
        echo "cluster.initial_master_nodes: [node-1]"
      else
        echo "node.roles: [data, ingest]"
      fi
    else
      # Three master-eligible nodes: a quorum of two remains whichever node is lost, the master too.
      echo "discovery.seed_hosts: [${seeds%,}]"
      echo "node.roles: [master, data, ingest]"
      echo "cluster.initial_master_nodes: [${names%,}]"
    fi
  } > "$dir/config/elasticsearch.yml"
  if [[ "$security" == 1 ]]; then
    mkdir -p "$dir/config/certs"
    cp "$(certs_dir)"/ca/ca.crt "$(certs_dir)"/node/node.crt "$(certs_dir)"/node/node.key "$dir/config/certs/"
    bash "$REPO_DIR/scripts/elasticsearch-roles.sh" roles-file > "$dir/config/roles.yml"
    local user role
    for user in "$ADMIN_USER:superuser" annonces-api:annonces_api annonces-indexer:annonces_indexer; do
      role="${user#*:}"; user="${user%%:*}"
      as_tool env ES_PATH_CONF="$dir/config" "$HOME_DIR/bin/elasticsearch-users" useradd "$user" -p "$(password_of "$user")" -r "$role" >/dev/null
    done
  fi
  chown -R "$(run_user)" "$dir"
}

# TLS on HTTP and on transport, with the certificates of certs_dir copied into the node's config.
security_settings() {
  echo "xpack.security.enabled: true"
  echo "xpack.security.authc.api_key.enabled: true"
  local layer
  for layer in http transport; do
    echo "xpack.security.$layer.ssl.enabled: true"
    echo "xpack.security.$layer.ssl.key: certs/node.key"
    echo "xpack.security.$layer.ssl.certificate: certs/node.crt"
    echo "xpack.security.$layer.ssl.certificate_authorities: [certs/ca.crt]"
  done
  echo "xpack.security.transport.ssl.verification_mode: certificate"
}

ADMIN_USER=annonces-admin
certs_dir() { echo "$ES_WORK_DIR/nodes/certs-$ES_HTTP_PORT"; }
password_of() { cat "$(certs_dir)/password-$1"; }
admin_password() { password_of "$ADMIN_USER"; }

# The distribution's command-line tools run on its JDK like the server.
as_tool() { ES_JAVA_HOME="$(java_home)" "$@"; }

# A CA and one certificate for 127.0.0.1/localhost (every node of the cluster shares it), made once
# per port range with the distribution's certutil; the passwords of the file realm's three users
# (this script's superuser, the API's, the indexer's), made once too.
make_credentials() {
  local dir; dir="$(certs_dir)"
  if [[ ! -f "$dir/node/node.key" ]]; then
    rm -rf "$dir"; mkdir -p "$dir"
    log "making a CA and a node certificate in $dir"
    as_tool "$HOME_DIR/bin/elasticsearch-certutil" ca --pem --silent --out "$dir/ca.zip" >/dev/null
    unzip_to "$dir/ca.zip" "$dir"
    as_tool "$HOME_DIR/bin/elasticsearch-certutil" cert --pem --silent --name node --ip 127.0.0.1 --dns localhost \
      --ca-cert "$dir/ca/ca.crt" --ca-key "$dir/ca/ca.key" --out "$dir/node.zip" >/dev/null
    unzip_to "$dir/node.zip" "$dir"
    chmod a+r "$dir/ca/ca.crt"
  fi
  local user
  for user in "$ADMIN_USER" annonces-api annonces-indexer; do
    [[ -s "$dir/password-$user" ]] || (umask 077; head -c 18 /dev/urandom | base64 | tr '+/' '-_' > "$dir/password-$user")
  done
}

unzip_to() {
  if command -v unzip >/dev/null; then unzip -qo "$1" -d "$2"; else python3 -m zipfile -e "$1" "$2"; fi
}

# curl on the cluster, with the superuser and the CA when security is on.
es_curl() {
  local path="$1"; shift
  if [[ "$security" == 1 ]]; then
    curl -fsS --cacert "$(certs_dir)/ca/ca.crt" -u "$ADMIN_USER:$(admin_password)" "$@" "https://127.0.0.1:$ES_HTTP_PORT$path"
  else
    curl -fsS "$@" "http://127.0.0.1:$ES_HTTP_PORT$path"
  fi
}

start_node() {
  local n="$1" nodes="$2" dir; dir="$(node_dir "$n")"
  if is_our_node "$(pid_of "$n")" "$dir"; then log "node-$n already running (pid $(pid_of "$n"))"; return; fi
  if (: > "/dev/tcp/127.0.0.1/$(( ES_HTTP_PORT + n - 1 ))") 2>/dev/null; then
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
  local nodes="$1" deadline=$(( SECONDS + ${ES_START_TIMEOUT:-180} ))
  until es_curl "/_cluster/health?wait_for_nodes=$nodes&wait_for_status=yellow&timeout=5s" >/dev/null 2>&1; do
    if (( SECONDS > deadline )); then
      tail -30 "$(node_dir 1)/logs/annonces-local-$ES_HTTP_PORT.log" >&2 2>/dev/null || true
      die "cluster not healthy after ${ES_START_TIMEOUT:-180} s"
    fi
    sleep 1
  done
  log "ready: port $ES_HTTP_PORT ($nodes node(s), Elasticsearch $ES_VERSION, security $([[ "$security" == 1 ]] && echo on || echo off))"
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
security=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --nodes) nodes="${2:-}"; shift 2 || usage ;;
    --security) security=1; shift ;;
    [0-9]*|master) node_arg="$1"; shift ;;
    *) usage ;;
  esac
done
[[ "$nodes" =~ ^[123]$ ]] || die "--nodes takes 1, 2 or 3"
# What the running nodes of this port range were started as: "<nodes> <security>".
mode_file="$ES_WORK_DIR/nodes/size-$ES_HTTP_PORT"
if [[ "$cmd" != start && -s "$mode_file" ]]; then read -r _ security < "$mode_file"; security="${security:-0}"; fi

# The node the cluster elected master, by its name node-N.
elected_master() { es_curl "/_cat/master?h=node" | tr -d ' \n' | sed 's/^node-//'; }

case "$cmd" in
  start)
    fetch; install_home; ensure_user
    # Data is kept from one start to the next, but a cluster's state cannot change size or security
    # (node 1 alone, node 1 the master of two, three masters; security on or off): a change stops
    # our nodes and starts empty.
    started_as="$(cat "$mode_file" 2>/dev/null || true)"
    [[ "$started_as" =~ ^[0-9]$ ]] && started_as+=" 0"   # written before security was an option
    if [[ "$started_as" != "$nodes $security" ]]; then
      for n in $(known_nodes); do stop_node "$n"; rm -rf "$(node_dir "$n")"; done
      mkdir -p "$ES_WORK_DIR/nodes"; echo "$nodes $security" > "$mode_file"
    fi
    if [[ "$security" == 1 ]]; then install_security_analysis; make_credentials; fi
    for n in $(seq 1 "$nodes"); do start_node "$n" "$nodes"; done
    wait_health "$nodes"
    if [[ "$security" == 1 ]]; then
      # The two roles, carried by two API keys (made by the superuser, restricted to the role) and
      # by two users of the file realm.
      echo "ES_URL=https://127.0.0.1:$ES_HTTP_PORT"
      echo "ES_CA_FILE=$(certs_dir)/ca/ca.crt"
      ES_URL="https://127.0.0.1:$ES_HTTP_PORT" ES_CA_FILE="$(certs_dir)/ca/ca.crt" \
        ES_ADMIN_USER="$ADMIN_USER" ES_ADMIN_PASSWORD="$(admin_password)" bash "$REPO_DIR/scripts/elasticsearch-roles.sh" api-keys
      echo "ES_USERNAME_API=annonces-api"
      echo "ES_PASSWORD_API=$(password_of annonces-api)"
      echo "ES_USERNAME_INDEXER=annonces-indexer"
      echo "ES_PASSWORD_INDEXER=$(password_of annonces-indexer)"
    else
      echo "ES_URL=http://127.0.0.1:$ES_HTTP_PORT"
    fi
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
    es_curl "/_cluster/health?pretty" 2>/dev/null || { echo "cluster: not answering on $ES_HTTP_PORT"; exit 3; }
    ;;
  kill-node)
    [[ -n "${node_arg:-}" ]] || usage
    if [[ "$node_arg" == master ]]; then node_arg="$(elected_master)"; [[ "$node_arg" =~ ^[0-9]$ ]] || die "no elected master answers"; fi
    pid="$(pid_of "$node_arg")"
    is_our_node "$pid" "$(node_dir "$node_arg")" || die "node-$node_arg is not running"
    kill -9 "$pid"
    log "killed node-$node_arg (pid $pid)"
    echo "KILLED=node-$node_arg"
    ;;
  *) usage ;;
esac
