# PostgreSQL 15 from Debian's package, on the base image the app's image is made from: the
# `postgres` service of docker-compose.yml where no registry serves the official postgres:15
# (`npm run test:containers -- --full` builds it and passes it as POSTGRES_IMAGE).
ARG BASE_IMAGE
FROM ${BASE_IMAGE}
# No cluster made by the package (the entry point makes its own in the volume), no service started
# while it installs.
RUN mkdir -p /etc/postgresql-common/createcluster.d \
  && echo 'create_main_cluster = false' >/etc/postgresql-common/createcluster.d/no-main.conf \
  && printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod 0755 /usr/sbin/policy-rc.d \
  && apt-get update && apt-get install -y --no-install-recommends postgresql-15 \
  && rm -rf /var/lib/apt/lists/* /usr/sbin/policy-rc.d \
  && mkdir -p /var/lib/postgresql/data /docker-entrypoint-initdb.d \
  && chown postgres:postgres /var/lib/postgresql/data && chmod 0700 /var/lib/postgresql/data
# pg_isready and psql of this version, for the compose file's healthcheck.
ENV PATH=/usr/lib/postgresql/15/bin:$PATH PGDATA=/var/lib/postgresql/data
COPY postgres-entrypoint.sh /usr/local/bin/postgres-entrypoint
VOLUME ["/var/lib/postgresql/data"]
EXPOSE 5432
# A fast shutdown: sessions are ended rather than waited for.
STOPSIGNAL SIGINT
ENTRYPOINT ["postgres-entrypoint"]
