// Marks the signed-in viewer's own rows in the standings table. The table is the same
// for every viewer (rendered once and shared); the nicknames he plays under are in the
// data-mine attribute of its section. Runs again after every refresh of the table.
(function () {
  function mark() {
    var holder = document.querySelector("[data-mine]");
    if (!holder) { return; }
    var mine = JSON.parse(holder.getAttribute("data-mine") || "[]").map(function (name) {
      return name.toLowerCase();
    });
    holder.querySelectorAll(".st-table tbody tr").forEach(function (row) {
      var link = row.querySelector("td a");
      var own = !!link && mine.indexOf(link.textContent.trim().toLowerCase()) >= 0;
      row.classList.toggle("mine", own);
      if (own) { row.setAttribute("data-testid", "my-row"); } else { row.removeAttribute("data-testid"); }
    });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", mark);
  } else {
    mark();
  }
  document.addEventListener("htmx:afterSettle", mark);
})();
