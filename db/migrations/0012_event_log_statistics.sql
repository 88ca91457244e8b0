-- The event log's filtered columns sample 3,000 rows instead of 30,000 (docs/decisions/0014, fifty-second pass).
-- Its rows are about 1 KB, so a full sample read most of the table: on bench/careplans' database (216,000
-- events, 200 MB) ANALYZE event took 290-670 ms of a core, every 10 s during a write burst (server/jobs/statistics),
-- and the requests at half load queued behind it. With 10: 51-64 ms, and the event log's plans are the same.
ALTER TABLE "event" ALTER COLUMN "id" SET STATISTICS 10, ALTER COLUMN "project_id" SET STATISTICS 10, ALTER COLUMN "name" SET STATISTICS 10, ALTER COLUMN "created_at" SET STATISTICS 10;
