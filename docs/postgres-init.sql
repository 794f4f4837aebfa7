-- The two databases of the sandbox on PostgreSQL: the service's and the terminal simulator's.
-- Each app runs its own migrations on start; it needs only a database it owns.
CREATE DATABASE tps_api OWNER tps;
CREATE DATABASE tps_terminal OWNER tps;
