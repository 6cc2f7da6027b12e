// Package sdf reads SDFormat (1.6 and later; the subset robots use) into a
// model.Import: a <model> or a <world> of models, links with inertial,
// collision (box, cylinder, sphere, capsule, ellipsoid, mesh, plane) and
// visual elements, joints (revolute, continuous, prismatic, fixed, ball,
// universal) with axis, limit (position limits and effort, enforced) and
// dynamics (damping, spring, friction as joint friction), explicit <frame>s, nested
// models, <include> with model:// URIs (found through a search path, the
// model directory's model.config naming the SDFormat file), static models,
// surface friction, Drake's drake:gear_ratio and drake:rotor_inertia (the
// joint's armature, gear_ratio² × rotor_inertia) and
// drake:proximity_properties. As in Drake, every revolute, continuous and
// prismatic joint whose effort limit is not 0 gets a motor actuator named
// after it.
//
// Poses follow SDFormat 1.7 frame semantics: a <pose> may name the frame it
// is relative_to; by default a link's pose is relative to its model's frame,
// a joint's to its child link, a frame's to the frame it is attached_to,
// and a collision's, visual's or inertial's to its link. A joint axis's
// <xyz expressed_in> names its frame (default: the joint's). Names of
// nested and included models are scoped as in SDFormat: "model::link".
//
// A model file's root link (the one that is no joint's child) is welded to
// the world unless model.Options.Floating; in a <world>, links without a
// joint are free unless their model is static, as SDFormat says.
package sdf
