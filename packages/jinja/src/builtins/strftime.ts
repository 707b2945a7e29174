const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

const pad = (n: number, width = 2, fill = "0") => String(n).padStart(width, fill);

function dayOfYear(d: Date): number {
  const start = new Date(d.getFullYear(), 0, 1);
  return (
    Math.round(
      (new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime() - start.getTime()) / 86400000,
    ) + 1
  );
}

/** C/Python strftime over a local-time Date (glibc's `%-d` style no-padding flag included). */
export function strftime(format: string, d: Date): string {
  return format.replace(/%([-_0^#]?)([a-zA-Z%])/g, (whole, flag: string, code: string) => {
    const num = (n: number, width = 2) =>
      flag === "-" ? String(n) : flag === "_" ? pad(n, width, " ") : pad(n, width);
    const hour12 = d.getHours() % 12 === 0 ? 12 : d.getHours() % 12;
    let out: string;
    switch (code) {
      case "Y":
        out = String(d.getFullYear());
        break;
      case "y":
        out = num(d.getFullYear() % 100);
        break;
      case "m":
        out = num(d.getMonth() + 1);
        break;
      case "d":
        out = num(d.getDate());
        break;
      case "e":
        out = flag === "-" ? String(d.getDate()) : pad(d.getDate(), 2, " ");
        break;
      case "H":
        out = num(d.getHours());
        break;
      case "I":
        out = num(hour12);
        break;
      case "M":
        out = num(d.getMinutes());
        break;
      case "S":
        out = num(d.getSeconds());
        break;
      case "f":
        out = pad(d.getMilliseconds() * 1000, 6);
        break;
      case "p":
        out = d.getHours() < 12 ? "AM" : "PM";
        break;
      case "A":
        out = DAYS[d.getDay()]!;
        break;
      case "a":
        out = DAYS[d.getDay()]!.slice(0, 3);
        break;
      case "B":
        out = MONTHS[d.getMonth()]!;
        break;
      case "b":
      case "h":
        out = MONTHS[d.getMonth()]!.slice(0, 3);
        break;
      case "j":
        out = num(dayOfYear(d), 3);
        break;
      case "w":
        out = String(d.getDay());
        break;
      case "u":
        out = String(d.getDay() === 0 ? 7 : d.getDay());
        break;
      case "D":
        out = `${pad(d.getMonth() + 1)}/${pad(d.getDate())}/${pad(d.getFullYear() % 100)}`;
        break;
      case "F":
        out = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
        break;
      case "T":
        out = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
        break;
      case "R":
        out = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
        break;
      case "c":
        out = `${DAYS[d.getDay()]!.slice(0, 3)} ${MONTHS[d.getMonth()]!.slice(0, 3)} ${pad(d.getDate(), 2, " ")} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())} ${d.getFullYear()}`;
        break;
      case "x":
        out = `${pad(d.getMonth() + 1)}/${pad(d.getDate())}/${pad(d.getFullYear() % 100)}`;
        break;
      case "X":
        out = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
        break;
      case "Z":
        out = "";
        break;
      case "z":
        out = "";
        break;
      case "%":
        out = "%";
        break;
      default:
        return whole;
    }
    return flag === "^" ? out.toUpperCase() : out;
  });
}
