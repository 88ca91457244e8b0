import { parseArgs } from 'node:util';
import { closeDb, getDb, migrateDb } from '@/db/client';
import { printSeed, seed } from '@/server/seed';
import { countProjects, createProject } from '@/server/services/projects/projects';
import { createUser, createUserInput } from '@/server/services/users/users';
import { AppError } from '@/server/errors';

const USAGE = `Usage: npm run carebase -- <command>

  project create --name N [--api-key K]   prints {"projectId":..,"apiKey":".."}
  user create --email E --password P --role admin|coordinator --project N
  migrate                                 apply database migrations
  seed                                    seed project 1 (only on an empty database)`;

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      'api-key': { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      role: { type: 'string' },
      project: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const command = positionals.join(' ');
  if (values.help || !command) return void console.log(USAGE);

  switch (command) {
    case 'migrate':
      await migrateDb();
      console.log('Migrations applied.');
      return;
    case 'seed': {
      await migrateDb();
      const db = await getDb();
      if ((await countProjects(db)) > 0) return void console.log('The database already has projects; nothing seeded.');
      printSeed(await seed(db));
      return;
    }
    case 'project create': {
      if (!values.name) throw new UsageError('--name is required');
      if (values['api-key'] !== undefined && values['api-key'].length < 16) throw new UsageError('--api-key needs 16+ characters');
      await migrateDb();
      const db = await getDb();
      const result = await db.transaction((tx) => createProject(tx, { name: values.name!, apiKey: values['api-key'] }));
      console.log(JSON.stringify(result));
      return;
    }
    case 'user create': {
      const parsed = createUserInput.safeParse({
        email: values.email,
        password: values.password,
        role: values.role,
        projectId: Number(values.project),
      });
      if (!parsed.success) {
        throw new UsageError(parsed.error.issues.map((i) => `--${i.path.join('.') === 'projectId' ? 'project' : i.path.join('.')}: ${i.message}`).join('\n'));
      }
      await migrateDb();
      const { userId } = await createUser(await getDb(), parsed.data);
      console.log(JSON.stringify({ userId, email: parsed.data.email, role: parsed.data.role, projectId: parsed.data.projectId }));
      return;
    }
    default:
      throw new UsageError(`Unknown command: ${command}`);
  }
}

class UsageError extends Error {}

main(process.argv.slice(2))
  .catch((e: unknown) => {
    process.exitCode = 1;
    if (e instanceof UsageError) console.error(`${e.message}\n\n${USAGE}`);
    else if (e instanceof AppError || e instanceof Error) console.error(`carebase: ${e.message}`);
    else console.error(e);
  })
  .finally(() => closeDb());
