#!/usr/bin/env bash
# The two least-privilege roles of the service on a cluster with security on (docs/elasticsearch.md
# "Roles"), and the credentials that carry them. The REST commands need a user allowed to manage
# security (the cluster's superuser); native roles, users and API keys live in the .security index
# (on the local test distribution, scripts/elasticsearch.sh adds the analysis components it needs):
#
#   scripts/elasticsearch-roles.sh roles              create or update the roles annonces_api and annonces_indexer
#   scripts/elasticsearch-roles.sh api-keys           create one API key per role, print ES_API_KEY_API=… and ES_API_KEY_INDEXER=…
#   scripts/elasticsearch-roles.sh users API_PW IDX_PW   create or update the users annonces-api and annonces-indexer
#   scripts/elasticsearch-roles.sh roles-file         print the same roles as a node's config/roles.yml (file realm)
#
# Settings (environment): ES_URL (one node, https or http), ES_ADMIN_USER and ES_ADMIN_PASSWORD
# (the managing user), ES_CA_FILE (the CA of the cluster's HTTP certificate, when https),
# ES_INDEX_ALIAS (annonces): the roles cover the alias, its generations and its state index.
set -euo pipefail

ALIAS="${ES_INDEX_ALIAS:-annonces}"

die() { echo "elasticsearch-roles.sh: $*" >&2; exit 1; }

es() {
  : "${ES_URL:?ES_URL is not set}" "${ES_ADMIN_USER:?ES_ADMIN_USER is not set}" "${ES_ADMIN_PASSWORD:?ES_ADMIN_PASSWORD is not set}"
  local method="$1" path="$2" body="${3:-}"
  local args=(-sS --fail-with-body -X "$method" -u "$ES_ADMIN_USER:$ES_ADMIN_PASSWORD" -H 'Content-Type: application/json')
  [[ -n "${ES_CA_FILE:-}" ]] && args+=(--cacert "$ES_CA_FILE")
  [[ -n "$body" ]] && args+=(-d "$body")
  curl "${args[@]}" "${ES_URL%%,*}$path" || die "$method $path failed"
}

# The API reads: searches and gets on the alias and its generations, the writer lock and journal
# in the state index (read), the alias's indices and settings (view_index_metadata), and the
# cluster's health for /health (monitor). It never writes, creates or refreshes anything.
api_role() {
  cat <<JSON
{"cluster":["monitor"],
 "indices":[{"names":["$ALIAS","$ALIAS-*"],"privileges":["read","view_index_metadata"]}]}
JSON
}

# The indexer writes listings (write), creates generations, moves the alias, changes the refresh
# interval and refreshes (manage), reads what it regroups (read); monitor for the wait for green.
indexer_role() {
  cat <<JSON
{"cluster":["monitor"],
 "indices":[{"names":["$ALIAS","$ALIAS-*"],"privileges":["read","write","manage"]}]}
JSON
}

# The `encoded` field of a create-API-key answer: what ES_API_KEY takes.
encoded_of() { sed -n 's/.*"encoded":"\([^"]*\)".*/\1/p'; }

case "${1:-}" in
  roles)
    es PUT /_security/role/annonces_api "$(api_role)" >/dev/null
    es PUT /_security/role/annonces_indexer "$(indexer_role)" >/dev/null
    echo "elasticsearch-roles.sh: roles annonces_api and annonces_indexer on $ALIAS, $ALIAS-*" >&2
    ;;
  api-keys)
    api="$(es POST /_security/api_key "{\"name\":\"annonces-api\",\"role_descriptors\":{\"annonces_api\":$(api_role)}}" | encoded_of)"
    indexer="$(es POST /_security/api_key "{\"name\":\"annonces-indexer\",\"role_descriptors\":{\"annonces_indexer\":$(indexer_role)}}" | encoded_of)"
    [[ -n "$api" && -n "$indexer" ]] || die "the cluster did not return the API keys"
    echo "ES_API_KEY_API=$api"
    echo "ES_API_KEY_INDEXER=$indexer"
    ;;
  users)
    [[ -n "${2:-}" && -n "${3:-}" ]] || die "users needs the two passwords"
    es PUT /_security/user/annonces-api "{\"password\":\"$2\",\"roles\":[\"annonces_api\"]}" >/dev/null
    es PUT /_security/user/annonces-indexer "{\"password\":\"$3\",\"roles\":[\"annonces_indexer\"]}" >/dev/null
    echo "elasticsearch-roles.sh: users annonces-api and annonces-indexer" >&2
    ;;
  roles-file)
    # YAML takes JSON as it is: one definition for both realms.
    echo "annonces_api: $(api_role | tr -d '\n')"
    echo "annonces_indexer: $(indexer_role | tr -d '\n')"
    ;;
  *) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
