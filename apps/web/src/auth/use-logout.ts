import { useCallback } from "react";
import { useSession } from "./session.tsx";

/**
 * Logout: forget the token, revoke the session on the server, go to /login (the route guard
 * takes a signed-out user there; other tabs follow through the `storage` event).
 */
export function useLogout(): () => void {
  const { signOut } = useSession();
  return useCallback(() => {
    void signOut();
  }, [signOut]);
}
