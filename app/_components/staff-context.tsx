'use client';

import { createContext, useContext, type ReactNode } from 'react';

export type Staff = { projectId: number; projectName: string; role: 'admin' | 'coordinator'; email: string; timeZone: string };

const StaffContext = createContext<Staff | null>(null);

export function StaffProvider({ staff, children }: { staff: Staff; children: ReactNode }) {
  return <StaffContext.Provider value={staff}>{children}</StaffContext.Provider>;
}

export function useStaff(): Staff {
  const staff = useContext(StaffContext);
  if (!staff) throw new Error('useStaff outside the admin layout');
  return staff;
}

export const useIsAdmin = () => useStaff().role === 'admin';
