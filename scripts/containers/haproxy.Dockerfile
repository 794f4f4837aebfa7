# HAProxy from Debian's package (2.6, with Lua), on the base image the app's image is made from:
# the `balancer` service of docker-compose.yml where no registry serves the official haproxy:2.8
# (`npm run test:containers -- --full` builds it and passes it as HAPROXY_IMAGE). Laid out as the
# official image: its configuration at /usr/local/etc/haproxy/haproxy.cfg, run as the user haproxy.
ARG BASE_IMAGE
FROM ${BASE_IMAGE}
# No service started while it installs.
RUN printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod 0755 /usr/sbin/policy-rc.d \
  && apt-get update && apt-get install -y --no-install-recommends haproxy \
  && rm -rf /var/lib/apt/lists/* /usr/sbin/policy-rc.d \
  && mkdir -p /usr/local/etc/haproxy
USER haproxy
# HAProxy's own graceful stop: it stops listening and lets what runs finish.
STOPSIGNAL SIGUSR1
# -W: a master process that forwards signals; -db: in the foreground, its log on stdout.
CMD ["haproxy", "-W", "-db", "-f", "/usr/local/etc/haproxy/haproxy.cfg"]
