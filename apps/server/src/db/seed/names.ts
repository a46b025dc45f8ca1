import type { Rng } from './prng';

const UZ_MALE = [
  'Jasur',
  'Sardor',
  'Bekzod',
  'Otabek',
  'Javlon',
  'Aziz',
  'Dilshod',
  'Rustam',
  'Shahzod',
  'Ulugbek',
  'Farrukh',
  'Anvar',
  'Bobur',
  'Sherzod',
  'Nodir',
  'Islom',
  'Jamshid',
  'Akmal',
];
const UZ_FEMALE = [
  'Dilnoza',
  'Madina',
  'Nigora',
  'Gulnora',
  'Shahnoza',
  'Kamola',
  'Zarina',
  'Malika',
  'Feruza',
  'Sevara',
  'Laylo',
  'Nilufar',
  'Mohira',
  'Durdona',
];
const UZ_SURNAMES = [
  'Karimov',
  'Rakhimov',
  'Yusupov',
  'Abdullaev',
  'Nazarov',
  'Ismoilov',
  'Khodjaev',
  'Mirzaev',
  'Sultanov',
  'Aliev',
  'Ergashev',
  'Usmonov',
  'Saidov',
  'Juraev',
  'Tursunov',
  'Rashidov',
  'Kholmatov',
  'Sobirov',
];
const RU_MALE = [
  'Ivan',
  'Dmitry',
  'Alexey',
  'Sergey',
  'Andrey',
  'Mikhail',
  'Nikolay',
  'Pavel',
  'Artem',
  'Maxim',
  'Egor',
  'Kirill',
  'Roman',
  'Vladimir',
];
const RU_FEMALE = [
  'Anna',
  'Elena',
  'Olga',
  'Maria',
  'Tatiana',
  'Natalia',
  'Ekaterina',
  'Irina',
  'Svetlana',
  'Yulia',
  'Daria',
  'Anastasia',
  'Ksenia',
  'Polina',
];
const RU_SURNAMES = [
  'Ivanov',
  'Smirnov',
  'Kuznetsov',
  'Popov',
  'Vasiliev',
  'Petrov',
  'Sokolov',
  'Mikhailov',
  'Novikov',
  'Fedorov',
  'Morozov',
  'Volkov',
  'Lebedev',
  'Kozlov',
  'Orlov',
  'Belov',
  'Zaitsev',
  'Pavlov',
];

export type PersonName = { firstName: string; lastName: string };

export function personName(rng: Rng, kind: 'UZ' | 'RU'): PersonName {
  const female = rng.chance(0.45);
  const first = kind === 'UZ' ? (female ? UZ_FEMALE : UZ_MALE) : female ? RU_FEMALE : RU_MALE;
  const last = rng.pick(kind === 'UZ' ? UZ_SURNAMES : RU_SURNAMES);
  return { firstName: rng.pick(first), lastName: female ? `${last}a` : last };
}
