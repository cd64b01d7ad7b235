'use strict';
// The two collections of a small task tracker (seed 004's shape: tasks with a creator and an
// executor to fill in, subtasks and tags, so that hydrating a document is real work).
const mongoose = require('mongoose');

const subtaskSchema = new mongoose.Schema({ title: String, done: Boolean }, { _id: false });

const taskSchema = new mongoose.Schema({
  projectId: { type: Number, index: true },
  title: String,
  note: String,
  status: { type: String, enum: ['todo', 'doing', 'review', 'done'] },
  priority: Number,
  creatorId: { type: mongoose.Schema.Types.ObjectId, ref: 'User' },
  executorId: { type: mongoose.Schema.Types.ObjectId, ref: 'User' },
  tags: [String],
  subtasks: [subtaskSchema],
  dueDate: Date,
  createdAt: Date,
  updatedAt: Date,
});

const userSchema = new mongoose.Schema({
  name: String,
  email: String,
  title: String,
  avatarUrl: String,
});

const Task = mongoose.model('Task', taskSchema);
const User = mongoose.model('User', userSchema);

module.exports = { Task, User };
