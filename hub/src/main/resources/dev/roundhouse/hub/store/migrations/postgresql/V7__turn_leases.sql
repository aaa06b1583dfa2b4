-- PostgreSQL twin of ../V7__turn_leases.sql.
ALTER TABLE turns ADD COLUMN worker_id TEXT;
ALTER TABLE turns ADD COLUMN lease_expires_at BIGINT;
