import { getDb } from '@/db/client';
import { createContext, type ServiceContext } from '@/server/context';
import { AppError } from '@/server/errors';
import { listProjectsOfUser, type ProjectSummary } from '@/server/services/projects/projects';

export type StaffProject = ProjectSummary & { role: 'admin' | 'coordinator' };

/** The service context of a signed-in staff user in the project they chose (or their first one). */
export async function resolveStaffContext(
  userId: number,
  requestedProjectId?: number,
  requestId?: string,
): Promise<{ svc: ServiceContext; project: StaffProject; projects: StaffProject[] }> {
  const db = await getDb();
  const projects = await listProjectsOfUser(db, userId);
  const project = projects.find((p) => p.id === requestedProjectId) ?? projects[0];
  if (!project) throw new AppError('forbidden', 'You belong to no project');
  const svc = createContext(db, project.id, { kind: 'user', userId, role: project.role }, undefined, requestId);
  return { svc, project, projects };
}
