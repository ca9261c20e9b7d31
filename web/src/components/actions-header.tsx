/** The heading of a table's last column, its row buttons: no text on screen, but a screen reader names the column. */
export function ActionsHeader() {
  return (
    <th scope="col">
      <span class="visually-hidden">Actions</span>
    </th>
  );
}
