#!/usr/bin/env bash
# Writes a configuration for Debian's nginx in front of several server instances (issue 20 item 5) and,
# unless --write-only, runs nginx in the foreground on it, unprivileged (every path in DIR):
#   bash scripts/nginx-proxy.sh DIR LISTEN_PORT BACKEND_PORT... [--write-only]
# - upstream `baas` over 127.0.0.1:<BACKEND_PORT>..., least connections, keep-alive connections;
# - failover: a request whose instance refuses the connection, times out or answers 502/503 goes to the
#   next instance (proxy_next_upstream error timeout http_502 http_503, at most 3 tries within 10 s);
#   nginx never resends a POST/PATCH that reached an instance (its non_idempotent default), only one
#   that could not be sent; passive health: an instance failing once is left out for 5 s (max_fails=1
#   fail_timeout=5s), then tried again;
# - X-Forwarded-For/-Proto/-Host and X-Real-IP set; X-Request-Id passed on from the client, or made by
#   nginx ($request_id) when it sent none (start the instances with TRUST_PROXY=127.0.0.1 so they take
#   it and the client address: server/plugins/app/requestLog.ts);
# - gzip off: the console's assets are precompressed (.br/.gz beside each, vite.config.ts); /assets/ is
#   served by nginx from the built console (CONSOLE_DIR, default ./dist) with gzip_static on and a
#   year's immutable caching, falling back to the instances for a file it lacks (an older build's chunk);
# - temporary files, pid, logs (access.log with the request id and upstream) all under DIR.
# Needs nginx (Debian package `nginx`, installed by scripts/ensure-system-deps.sh) at /usr/sbin/nginx.
set -euo pipefail
dir=$1
listen=$2
shift 2
ports=()
write_only=0
for a in "$@"; do
  if [ "$a" = "--write-only" ]; then write_only=1; else ports+=("$a"); fi
done
[ ${#ports[@]} -gt 0 ] || { echo "usage: $0 DIR LISTEN_PORT BACKEND_PORT... [--write-only]" >&2; exit 2; }
mkdir -p "$dir/tmp"
# nginx's workers (user nobody when started as root) write the temp files and read through DIR.
chmod 755 "$dir"
dir=$(cd "$dir" && pwd)
console=$(cd "$(dirname "$0")/.." && realpath -m "${CONSOLE_DIR:-dist}")
servers=""
for p in "${ports[@]}"; do
  servers+="    server 127.0.0.1:$p max_fails=1 fail_timeout=5s;"$'\n'
done
cat > "$dir/nginx.conf" <<CONF
# Written by scripts/nginx-proxy.sh: nginx in front of ${#ports[@]} baas-admin instances.
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 1024; }
http {
  include /etc/nginx/mime.types;
  client_body_temp_path $dir/tmp/body;
  proxy_temp_path $dir/tmp/proxy;
  fastcgi_temp_path $dir/tmp/fastcgi;
  uwsgi_temp_path $dir/tmp/uwsgi;
  scgi_temp_path $dir/tmp/scgi;
  log_format baas '\$remote_addr "\$request" \$status \$request_time rid=\$req_id up=\$upstream_addr/\$upstream_status';
  access_log $dir/access.log baas;
  server_tokens off;
  client_max_body_size 12m;
  gzip off;
  # The client's X-Request-Id, else one made here.
  map \$http_x_request_id \$req_id {
    default \$http_x_request_id;
    "" \$request_id;
  }
  upstream baas {
    least_conn;
$servers    keepalive 32;
  }
  server {
    listen 127.0.0.1:$listen;
    proxy_http_version 1.1;
    proxy_set_header Connection "";
    proxy_set_header Host \$http_host;
    proxy_set_header X-Real-IP \$remote_addr;
    proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
    proxy_set_header X-Forwarded-Proto \$scheme;
    proxy_set_header X-Forwarded-Host \$host;
    proxy_set_header X-Request-Id \$req_id;
    proxy_connect_timeout 2s;
    proxy_read_timeout 60s;
    proxy_next_upstream error timeout http_502 http_503;
    proxy_next_upstream_tries 3;
    proxy_next_upstream_timeout 10s;
    location / {
      proxy_pass http://baas;
    }
    # Hashed console assets from the build itself, precompressed (.gz) files as they are.
    location /assets/ {
      root $console;
      gzip_static on;
      add_header Cache-Control "public, max-age=31536000, immutable";
      try_files \$uri @instances;
    }
    location @instances {
      proxy_pass http://baas;
    }
  }
}
CONF
echo "nginx config: $dir/nginx.conf (http://127.0.0.1:$listen/ over ports ${ports[*]})"
[ "$write_only" = 1 ] && exit 0
exec /usr/sbin/nginx -p "$dir" -c "$dir/nginx.conf" -g 'daemon off;'
