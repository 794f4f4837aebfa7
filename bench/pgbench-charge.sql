-- One sync charge as the API writes it to PostgreSQL (docs/contract.md, "The hot write path"):
-- the merchant with its terminal in one read; the record inserted on its unique key and
-- committed before the terminal is asked; then the terminal's events in one INSERT and the
-- record's new state, committed together. Row sizes are of the order of the real ones.
\set merchant random(1, 100000)
\set id random(1, 9000000000000000000)
SELECT aid, bid, abalance FROM pgbench_accounts WHERE aid = :merchant;
INSERT INTO charge_records (id, merchant, client_transaction_id, status, body) VALUES (:id, :merchant, md5(cast(:id AS text)), 'PENDING', repeat('r', 400)) ON CONFLICT DO NOTHING;
BEGIN;
INSERT INTO charge_events (record_id, seq, body) VALUES (:id, 1, repeat('e', 600)), (:id, 2, repeat('e', 600)), (:id, 3, repeat('e', 600)), (:id, 4, repeat('e', 600));
UPDATE charge_records SET status = 'APPROVAL', event_count = 4 WHERE id = :id;
COMMIT;
