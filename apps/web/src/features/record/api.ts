import type { ClassRecord, RecordField, RecordRow } from "@gradecast/contract/school-record";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { call } from "../../api/client.ts";
import { classesKey } from "../classes/api.ts";

// The gradebook's calls (issue 29): a class's record, one cell's change, a student's history
// and the CSV import. A saved cell puts the row the server answers into the cached record; an
// import fetches every class answer again (the risk list's figures follow the record).

export const recordKey = (id: string) => [...classesKey, "record", id] as const;
const historyKey = (id: string, uid: string) => [...recordKey(id), "history", uid] as const;

export function useClassRecord(id: string) {
  return useQuery({
    queryKey: recordKey(id),
    queryFn: ({ signal }) =>
      call("GET /api/classes/:id/record", { params: { id } }, { signal }) as Promise<ClassRecord>,
    retry: 1,
  });
}

export function useRecordHistory(id: string, uid: string) {
  return useQuery({
    queryKey: historyKey(id, uid),
    queryFn: ({ signal }) =>
      call("GET /api/classes/:id/record/:uid/history", { params: { id, uid } }, { signal }),
    retry: 1,
  });
}

/** Puts a saved row into the cached record, and marks the rest of the class's answers stale. */
export function useRowSaved(id: string) {
  const client = useQueryClient();
  return (row: RecordRow) => {
    client.setQueryData<ClassRecord>(recordKey(id), (record) =>
      record
        ? {
            ...record,
            items: record.items.map((r) => (r.studentId === row.studentId ? row : r)),
          }
        : record,
    );
    void client.invalidateQueries({ queryKey: historyKey(id, row.studentId) });
    void client.invalidateQueries({ queryKey: [...classesKey, "risk", id] });
  };
}

export function saveCell(
  id: string,
  uid: string,
  field: RecordField,
  value: number | boolean | null,
) {
  return call("PUT /api/classes/:id/record/:uid", { params: { id, uid }, body: { field, value } });
}

/** Sends a CSV file as its own bytes; `preview` (the dry run) changes nothing. */
export function useRecordImport(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ file, preview }: { file: Blob; preview: boolean }) =>
      call("POST /api/classes/:id/record/import", {
        params: { id },
        query: { dryRun: preview ? "true" : "false" },
        body: new Blob([file], { type: "text/csv" }),
      }),
    onSuccess: (_answer, { preview }) =>
      preview ? undefined : client.invalidateQueries({ queryKey: classesKey }),
  });
}
